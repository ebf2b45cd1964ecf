/* Protocol 0's text arguments: decimal integers, quoted Python 2 string reprs, raw-unicode-escape. */
#include "pickle_parser.h"

static int hex_digit(unsigned char character)
{
    if (character >= '0' && character <= '9')
        return character - '0';
    if (character >= 'a' && character <= 'f')
        return character - 'a' + 10;
    if (character >= 'A' && character <= 'F')
        return character - 'A' + 10;
    return -1;
}

/* Decodes the escape at TEXT[*INDEX] (after a backslash) of a Python 2 string repr whose content
   ends at LENGTH. */
static int decode_escape(const unsigned char *text, size_t length, size_t *index,
                         unsigned char *decoded)
{
    static const char simple[] = "\\\\''\"\"n\nt\tr\ra\ab\bf\fv\v";
    unsigned char character = text[*index];
    for (size_t pair = 0; simple[pair] != '\0'; pair += 2)
        if (character == (unsigned char)simple[pair]) {
            *decoded = (unsigned char)simple[pair + 1];
            *index += 1;
            return 0;
        }
    if (character == 'x' && *index + 2 < length && hex_digit(text[*index + 1]) >= 0 &&
        hex_digit(text[*index + 2]) >= 0) {
        *decoded = (unsigned char)(hex_digit(text[*index + 1]) * 16 + hex_digit(text[*index + 2]));
        *index += 3;
        return 0;
    }
    return -1;
}

static size_t put_utf8(uint32_t code, unsigned char *out)
{
    if (code < 0x80) {
        out[0] = (unsigned char)code;
        return 1;
    }
    if (code < 0x800) {
        out[0] = (unsigned char)(0xC0 | (code >> 6));
        out[1] = (unsigned char)(0x80 | (code & 0x3F));
        return 2;
    }
    if (code < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (code >> 12));
        out[1] = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (code >> 18));
    out[1] = (unsigned char)(0x80 | ((code >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (code & 0x3F));
    return 4;
}

/* Reads the DIGITS hex digits of a \u or \U escape at TEXT; -1 when malformed. */
static int64_t escaped_code(const unsigned char *text, size_t available, size_t digits)
{
    if (available < digits)
        return -1;
    int64_t code = 0;
    for (size_t index = 0; index < digits; index++) {
        int digit = hex_digit(text[index]);
        if (digit < 0)
            return -1;
        code = code * 16 + digit;
    }
    return code <= 0x10FFFF ? code : -1;
}

/* Parses a protocol 0 decimal integer, with an optional sign and trailing 'L', in no locale. */
const char *pickle_text_decimal(const unsigned char *text, size_t length, int64_t *value)
{
    if (length > 0 && text[length - 1] == 'L')
        length--;
    size_t index = 0;
    bool negative = false;
    if (length > 0 && (text[0] == '-' || text[0] == '+')) {
        negative = text[0] == '-';
        index = 1;
    }
    if (index == length)
        return "malformed integer";
    uint64_t magnitude = 0;
    for (; index < length; index++) {
        if (text[index] < '0' || text[index] > '9')
            return "malformed integer";
        if (magnitude > (UINT64_C(1) << 63) / 10)
            return "integer too large";
        magnitude = magnitude * 10 + (uint64_t)(text[index] - '0');
    }
    if (magnitude > (negative ? UINT64_C(1) << 63 : (uint64_t)INT64_MAX))
        return "integer too large";
    *value = negative ? (int64_t)(0 - magnitude) : (int64_t)magnitude;
    return NULL;
}

bool pickle_text_unquote(unsigned char *line, size_t length, size_t *written)
{
    if (length < 2 || (line[0] != '\'' && line[0] != '"') || line[length - 1] != line[0])
        return false;
    *written = 0;
    for (size_t index = 1; index < length - 1;) {
        if (line[index] != '\\') {
            line[(*written)++] = line[index++];
            continue;
        }
        index++;
        if (index >= length - 1 || decode_escape(line, length - 1, &index, &line[(*written)++]) != 0)
            return false;
    }
    return true;
}

bool pickle_text_unescape_unicode(const unsigned char *line, size_t length, unsigned char *out,
                                  size_t *written)
{
    *written = 0;
    for (size_t index = 0; index < length;) {
        size_t digits = index + 1 < length && line[index] == '\\'
                            ? (line[index + 1] == 'u' ? 4 : line[index + 1] == 'U' ? 8 : 0)
                            : 0;
        int64_t code = digits ? escaped_code(line + index + 2, length - index - 2, digits)
                              : line[index];
        if (code < 0)
            return false;
        *written += put_utf8((uint32_t)code, out + *written);
        index += digits ? digits + 2 : 1;
    }
    return true;
}
