/* Reads S3's XML answers with expat's streaming parser: each element's text is gathered (capped)
   and kept when it is a field fuel uses, at the depth S3 puts it. */
#include "s3_xml.h"

#include "common/base/error.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DEPTH_LIMIT = 8, TEXT_LIMIT = 4096, ENTRY_LIMIT = 100000 };

struct reader {
    struct s3_answer *answer;
    XML_Parser parser;
    unsigned depth;
    bool failed;                  /* out of memory, too deep or too many entries */
    char names[DEPTH_LIMIT][32];  /* the open elements' names, cut */
    char text[TEXT_LIMIT + 1];
    size_t text_length;
};

static void reader_stop(struct reader *reader)
{
    reader->failed = true;
    XML_StopParser(reader->parser, XML_FALSE);
}

static void XMLCALL element_start(void *data, const XML_Char *name, const XML_Char **attributes)
{
    (void)attributes;
    struct reader *reader = data;
    if (reader->depth >= DEPTH_LIMIT)
        return reader_stop(reader);
    snprintf(reader->names[reader->depth], sizeof reader->names[0], "%s", name);
    reader->depth++;
    reader->text_length = 0;
    struct s3_answer *answer = reader->answer;
    bool entry = strcmp(name, "Contents") == 0 || strcmp(name, "Upload") == 0;
    if (reader->depth == 2 && entry) {
        if (answer->count >= ENTRY_LIMIT)
            return reader_stop(reader);
        struct s3_entry *grown = realloc(answer->entries, (answer->count + 1) * sizeof *grown);
        if (grown == NULL)
            return reader_stop(reader);
        answer->entries = grown;
        memset(&grown[answer->count++], 0, sizeof *grown);
    }
}

static void XMLCALL element_text(void *data, const XML_Char *text, int length)
{
    struct reader *reader = data;
    size_t room = TEXT_LIMIT - reader->text_length;
    size_t count = (size_t)length < room ? (size_t)length : room;
    memcpy(reader->text + reader->text_length, text, count);
    reader->text_length += count;
}

static void keep_string(struct reader *reader, char **slot)
{
    free(*slot);
    *slot = strdup(reader->text);
    if (*slot == NULL)
        reader_stop(reader);
}

/* The element's text into a fixed field, cut to fit. */
static void keep_cut(const struct reader *reader, char *field, size_t size)
{
    size_t count = reader->text_length < size - 1 ? reader->text_length : size - 1;
    memcpy(field, reader->text, count);
    field[count] = '\0';
}

/* A field of the answer's root element. */
static void root_field(struct reader *reader, const char *name)
{
    struct s3_answer *answer = reader->answer;
    if (strcmp(name, "Code") == 0)
        keep_cut(reader, answer->code, sizeof answer->code);
    else if (strcmp(name, "Message") == 0)
        keep_cut(reader, answer->message, sizeof answer->message);
    else if (strcmp(name, "UploadId") == 0)
        keep_string(reader, &answer->upload_id);
    else if (strcmp(name, "IsTruncated") == 0)
        answer->truncated = strcmp(reader->text, "true") == 0;
    else if (strcmp(name, "NextContinuationToken") == 0)
        keep_string(reader, &answer->next_token);
    else if (strcmp(name, "NextKeyMarker") == 0)
        keep_string(reader, &answer->next_key_marker);
    else if (strcmp(name, "NextUploadIdMarker") == 0)
        keep_string(reader, &answer->next_upload_marker);
}

/* A field of the last <Contents> or <Upload>. */
static void entry_field(struct reader *reader, const char *name)
{
    struct s3_answer *answer = reader->answer;
    const char *parent = reader->names[1];
    bool entry = strcmp(parent, "Contents") == 0 || strcmp(parent, "Upload") == 0;
    if (!entry || answer->count == 0)
        return;
    struct s3_entry *last = &answer->entries[answer->count - 1];
    if (strcmp(name, "Key") == 0)
        keep_string(reader, &last->key);
    else if (strcmp(name, "UploadId") == 0)
        keep_string(reader, &last->upload_id);
    else if (strcmp(name, "Size") == 0)
        last->size = strtoull(reader->text, NULL, 10);
}

static void XMLCALL element_end(void *data, const XML_Char *name)
{
    struct reader *reader = data;
    reader->text[reader->text_length] = '\0';
    if (reader->depth == 2)
        root_field(reader, name);
    else if (reader->depth == 3)
        entry_field(reader, name);
    reader->depth--;
    reader->text_length = 0;
}

int s3_xml_parse(const char *body, size_t size, const char *what, struct s3_answer *answer)
{
    memset(answer, 0, sizeof *answer);
    if (size > S3_XML_LIMIT)
        return error_set(EXIT_CORRUPT_INPUT, "answer too large: %s: over %u bytes of XML", what,
                         S3_XML_LIMIT);
    struct reader *reader = calloc(1, sizeof *reader);
    XML_Parser parser = XML_ParserCreate("UTF-8");
    if (reader == NULL || parser == NULL) {
        free(reader);
        if (parser != NULL)
            XML_ParserFree(parser);
        return error_set(EXIT_OTHER, "out of memory: reading %s", what);
    }
    reader->answer = answer;
    reader->parser = parser;
    XML_SetUserData(parser, reader);
    XML_SetElementHandler(parser, element_start, element_end);
    XML_SetCharacterDataHandler(parser, element_text);
    enum XML_Status status = XML_Parse(parser, body, (int)size, XML_TRUE);
    int code = EXIT_OK;
    if (status != XML_STATUS_OK || reader->failed)
        code = error_set(EXIT_CORRUPT_INPUT, "cannot read the answer: %s: %s", what,
                         reader->failed ? "nested too deep, too many entries or out of memory"
                                        : XML_ErrorString(XML_GetErrorCode(parser)));
    XML_ParserFree(parser);
    free(reader);
    if (code != EXIT_OK)
        s3_answer_free(answer);
    return code;
}

void s3_answer_free(struct s3_answer *answer)
{
    for (size_t index = 0; index < answer->count; index++) {
        free(answer->entries[index].key);
        free(answer->entries[index].upload_id);
    }
    free(answer->entries);
    free(answer->upload_id);
    free(answer->next_token);
    free(answer->next_key_marker);
    free(answer->next_upload_marker);
    memset(answer, 0, sizeof *answer);
}
