/* libpng's error and warning callbacks, for the encoder and the decoder alike. */
#include "png_messages.h"

#include <stdio.h>

void png_message_keep(png_structp png, png_const_charp message)
{
    snprintf(png_get_error_ptr(png), PNG_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

void png_warning_ignore(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}
