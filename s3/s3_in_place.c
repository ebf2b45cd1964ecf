/* Whether an s3:// object can be read in place, and the driver's URL, keys and size when it can:
   the credentials first, then a HEAD for its size and recorded sha256. */
#include "s3_in_place.h"

#include "common/base/error.h"
#include "common/download/s3_location.h"
#include "common/download/s3_request.h"
#include "s3/s3_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SHA256_HEX = 64 };

/* What the driver cannot do with CREDENTIALS, NULL when nothing. */
static const char *credentials_refusal(const struct s3_credentials *credentials)
{
    if (credentials->session_token != NULL)
        return "a session token";
    if (credentials->ca_bundle != NULL)
        return "AWS_CA_BUNDLE";
    if (credentials->insecure)
        return "--insecure";
    return NULL;
}

static int keys_copy(struct s3_in_place *place, const struct s3_credentials *credentials)
{
    snprintf(place->region, sizeof place->region, "%s", credentials->region);
    place->remote.region = place->region;
    if (credentials->access_key == NULL)
        return EXIT_OK;
    snprintf(place->key_id, sizeof place->key_id, "%s", credentials->access_key);
    snprintf(place->secret, sizeof place->secret, "%s", credentials->secret_key);
    place->remote.key_id = place->key_id;
    place->remote.secret = place->secret;
    return EXIT_OK;
}

static int object_look(struct s3_in_place *place, const struct s3_location *location,
                       const struct s3_credentials *credentials, const char **refusal)
{
    struct s3_response head = {0};
    int code = s3_object_head(location, &head);
    if (code == EXIT_OK && strlen(head.sha256) != SHA256_HEX)
        *refusal = "no sha256 recorded";
    if (code == EXIT_OK && *refusal == NULL) {
        memcpy(place->sha256, head.sha256, SHA256_HEX + 1);
        place->remote.sha256 = place->sha256;
        place->remote.size = head.content_length;
        place->location = s3_request_url(credentials, location->bucket, location->key, "");
        place->remote.location = place->location;
        if (place->location == NULL)
            code = error_set(EXIT_OTHER, "out of memory");
    }
    s3_response_free(&head);
    return code;
}

int s3_in_place_prepare(struct s3_in_place *place, const char *url, bool *usable, char *why,
                        size_t size)
{
    memset(place, 0, sizeof *place);
    *usable = false;
    const struct s3_credentials *credentials = s3_credentials_shared();
    if (credentials == NULL)
        return error_code();
    const char *refusal = credentials_refusal(credentials);
    struct s3_location location;
    int code = s3_location_parse(&location, url);
    if (code != EXIT_OK)
        return code;
    size_t length = strlen(location.key);
    if (length == 0 || location.key[length - 1] == '/')
        code = error_set(EXIT_CORRUPT_INPUT, "not an object: %s: the name ends with '/'", url);
    if (code == EXIT_OK && refusal == NULL)
        code = keys_copy(place, credentials);
    if (code == EXIT_OK && refusal == NULL)
        code = object_look(place, &location, credentials, &refusal);
    s3_location_free(&location);
    *usable = code == EXIT_OK && refusal == NULL;
    snprintf(why, size, "%s", refusal != NULL ? refusal : "");
    return code;
}

void s3_in_place_free(struct s3_in_place *place)
{
    free(place->location);
    memset(place, 0, sizeof *place);
}
