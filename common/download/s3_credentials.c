/* The AWS credential chain: environment variables, then the INI files of the named profile. */
#include "s3_credentials.h"

#include "common/base/error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_LIMIT = 4096, LINE_COUNT_LIMIT = 100000 };

/* What a profile's section said; a value already set is not overwritten by a later file. */
struct profile_values {
    char *access_key, *secret_key, *session_token, *region, *endpoint, *ca_bundle;
    bool found;
};

static char *environment_value(const char *name)
{
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? strdup(value) : NULL;
}

static char *trim(char *text)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t length = strlen(text);
    while (length > 0 && isspace((unsigned char)text[length - 1]))
        text[--length] = '\0';
    return text;
}

/* A "name = value" line of the section read: its value, when NAME is one kept. */
static void profile_take(struct profile_values *values, const char *name, const char *value)
{
    struct { const char *name; char **slot; } slots[] = {
        {"aws_access_key_id", &values->access_key},
        {"aws_secret_access_key", &values->secret_key},
        {"aws_session_token", &values->session_token},
        {"region", &values->region},
        {"endpoint_url", &values->endpoint},
        {"ca_bundle", &values->ca_bundle},
    };
    for (size_t index = 0; index < sizeof slots / sizeof slots[0]; index++)
        if (strcmp(name, slots[index].name) == 0 && *slots[index].slot == NULL && value[0] != '\0')
            *slots[index].slot = strdup(value);
}

/* One line of an INI file: a section header sets IN_SECTION, a value of the section is kept; an
   indented line (a nested block such as "s3 =") is passed over. */
static int ini_line(char *line, const char *section, bool *in_section,
                    struct profile_values *values)
{
    bool indented = isspace((unsigned char)line[0]);
    char *text = trim(line);
    if (text[0] == '\0' || text[0] == '#' || text[0] == ';' || (indented && !*in_section))
        return EXIT_OK;
    size_t length = strlen(text);
    if (text[0] == '[' && text[length - 1] == ']') {
        text[length - 1] = '\0';
        *in_section = strcmp(trim(text + 1), section) == 0;
        values->found |= *in_section;
        return EXIT_OK;
    }
    char *equals = strchr(text, '=');
    if (equals == NULL)
        return EXIT_CORRUPT_INPUT;
    *equals = '\0';
    if (*in_section && !indented)
        profile_take(values, trim(text), trim(equals + 1));
    return EXIT_OK;
}

/* Reads SECTION of the INI file at PATH into VALUES; a missing file is no error. */
static int ini_read(const char *path, const char *section, struct profile_values *values)
{
    FILE *file = fopen(path, "r");
    if (file == NULL)
        return EXIT_OK;
    char line[LINE_LIMIT];
    bool in_section = false;
    int code = EXIT_OK;
    for (unsigned number = 1; code == EXIT_OK && fgets(line, sizeof line, file) != NULL; number++) {
        size_t length = strlen(line);
        if ((length == sizeof line - 1 && line[length - 1] != '\n') || number > LINE_COUNT_LIMIT ||
            ini_line(line, section, &in_section, values) != EXIT_OK)
            code = error_set(EXIT_CORRUPT_INPUT, "cannot read: %s: line %u: not \"[section]\" or "
                             "\"name = value\"", path, number);
    }
    fclose(file);
    return code;
}

/* The file named by VARIABLE, else ~/.aws/NAME. */
static char *aws_file(const char *variable, const char *name)
{
    const char *named = getenv(variable);
    if (named != NULL && named[0] != '\0')
        return strdup(named);
    const char *home = getenv("HOME");
    char *path = NULL;
    if (asprintf(&path, "%s/.aws/%s", home != NULL ? home : "", name) < 0)
        return NULL;
    return path;
}

static int profile_read(const char *profile, struct profile_values *values)
{
    char *credentials = aws_file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
    char *config = aws_file("AWS_CONFIG_FILE", "config");
    char *config_section = NULL;
    int code = EXIT_OTHER;
    if (credentials != NULL && config != NULL &&
        asprintf(&config_section, strcmp(profile, "default") == 0 ? "%s" : "profile %s",
                 profile) >= 0) {
        code = ini_read(credentials, profile, values);
        if (code == EXIT_OK)
            code = ini_read(config, config_section, values);
    } else {
        error_set(code, "out of memory: reading the AWS profile %s", profile);
    }
    free(credentials);
    free(config);
    free(config_section);
    return code;
}

static void profile_values_free(struct profile_values *values)
{
    free(values->access_key);
    free(values->secret_key);
    free(values->session_token);
    free(values->region);
    free(values->endpoint);
    free(values->ca_bundle);
}

/* The first of FIRST (taken), then SECOND (taken): the other is freed. */
static char *first_of(char *first, char *second)
{
    if (first != NULL) {
        free(second);
        return first;
    }
    return second;
}

static int keys_choose(struct s3_credentials *credentials, struct profile_values *values,
                       bool anonymous)
{
    char *access = environment_value("AWS_ACCESS_KEY_ID");
    char *secret = environment_value("AWS_SECRET_ACCESS_KEY");
    char *token = environment_value("AWS_SESSION_TOKEN");
    if (access == NULL && secret == NULL) {
        access = values->access_key, secret = values->secret_key, token = values->session_token;
        values->access_key = values->secret_key = values->session_token = NULL;
    }
    if (anonymous) {
        free(access), free(secret), free(token);
        return EXIT_OK;
    }
    credentials->access_key = access, credentials->secret_key = secret;
    credentials->session_token = token;
    if ((access == NULL) != (secret == NULL))
        return error_set(EXIT_TRANSFER, "incomplete S3 credentials: profile %s: an access key "
                         "without its secret key, or a secret key without its access key",
                         credentials->profile);
    return EXIT_OK;
}

int s3_credentials_load(struct s3_credentials *credentials, bool anonymous)
{
    memset(credentials, 0, sizeof *credentials);
    const char *named = getenv("AWS_PROFILE");
    bool explicit = named != NULL && named[0] != '\0';
    credentials->profile = strdup(explicit ? named : "default");
    if (credentials->profile == NULL)
        return error_set(EXIT_OTHER, "out of memory: reading the AWS profile");
    struct profile_values values = {0};
    int code = profile_read(credentials->profile, &values);
    if (code == EXIT_OK && explicit && !values.found)
        code = error_set(EXIT_TRANSFER, "unknown AWS profile: %s: neither ~/.aws/credentials nor "
                         "~/.aws/config has it", credentials->profile);
    if (code == EXIT_OK)
        code = keys_choose(credentials, &values, anonymous);
    char *region = first_of(environment_value("AWS_DEFAULT_REGION"), values.region);
    credentials->region = first_of(environment_value("AWS_REGION"), region);
    values.region = NULL;
    char *endpoint = first_of(environment_value("AWS_ENDPOINT_URL"), values.endpoint);
    credentials->endpoint = first_of(environment_value("AWS_ENDPOINT_URL_S3"), endpoint);
    values.endpoint = NULL;
    credentials->ca_bundle = first_of(environment_value("AWS_CA_BUNDLE"), values.ca_bundle);
    values.ca_bundle = NULL;
    profile_values_free(&values);
    if (code == EXIT_OK && credentials->region == NULL &&
        (credentials->region = strdup("us-east-1")) == NULL)
        code = error_set(EXIT_OTHER, "out of memory: reading the AWS profile");
    return code;
}

void s3_credentials_free(struct s3_credentials *credentials)
{
    free(credentials->access_key);
    free(credentials->secret_key);
    free(credentials->session_token);
    free(credentials->region);
    free(credentials->endpoint);
    free(credentials->profile);
    free(credentials->ca_bundle);
    memset(credentials, 0, sizeof *credentials);
}

static struct {
    bool anonymous, insecure, loaded;
    int code;
    char message[512];
    struct s3_credentials credentials;
} shared;

static void shared_free(void)
{
    s3_credentials_free(&shared.credentials);
}

void s3_credentials_configure(bool anonymous, bool insecure)
{
    shared.anonymous = anonymous;
    shared.insecure = insecure;
}

const struct s3_credentials *s3_credentials_shared(void)
{
    if (!shared.loaded) {
        shared.loaded = true;
        shared.code = s3_credentials_load(&shared.credentials, shared.anonymous);
        shared.credentials.insecure = shared.insecure;
        snprintf(shared.message, sizeof shared.message, "%s", error_message());
        atexit(shared_free);
    }
    if (shared.code != EXIT_OK) {
        error_set(shared.code, "%s", shared.message);
        return NULL;
    }
    return &shared.credentials;
}
