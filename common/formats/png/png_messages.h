/* libpng's error and warning callbacks, for the encoder and the decoder alike. */
#ifndef FUEL_PNG_MESSAGES_H
#define FUEL_PNG_MESSAGES_H

#include <png.h>

/* The room for libpng's message, which the error pointer given to png_create_*_struct names. */
#define PNG_MESSAGE_SIZE 160

/* The error callback: keeps MESSAGE in the PNG_MESSAGE_SIZE bytes at the error pointer, then
   returns to the caller's setjmp (libpng's error callbacks must not return). */
void png_message_keep(png_structp png, png_const_charp message);

/* The warning callback: libpng's warnings (a bad CRC in an ancillary chunk, ...) are not shown. */
void png_warning_ignore(png_structp png, png_const_charp message);

#endif
