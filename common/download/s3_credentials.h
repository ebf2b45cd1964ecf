/* Where S3 requests go and how they are signed, found by the AWS conventions: environment
   variables, then the profile's ~/.aws/credentials and ~/.aws/config. */
#ifndef FUEL_S3_CREDENTIALS_H
#define FUEL_S3_CREDENTIALS_H

#include <stdbool.h>

struct s3_credentials {
    char *access_key;     /* NULL: anonymous requests, unsigned */
    char *secret_key;
    char *session_token;  /* NULL when none */
    char *region;         /* never NULL: us-east-1 when nothing names one */
    char *endpoint;       /* an S3-compatible store's URL (path-style requests); NULL: AWS */
    char *profile;        /* the profile read, for messages */
    char *ca_bundle;      /* AWS_CA_BUNDLE: the certificates TLS trusts; NULL: the system's */
    bool insecure;        /* --insecure: TLS certificates not verified */
};

/* Fills CREDENTIALS. Keys: AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN),
   else those of the profile AWS_PROFILE (default "default") in AWS_SHARED_CREDENTIALS_FILE
   (~/.aws/credentials) or AWS_CONFIG_FILE (~/.aws/config); none there: anonymous, as with
   ANONYMOUS true. Region: AWS_REGION, AWS_DEFAULT_REGION, the profile's `region`. Endpoint:
   AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's `endpoint_url`. Certificates:
   AWS_CA_BUNDLE, the profile's `ca_bundle`, else the system's. EXIT_TRANSFER when
   AWS_PROFILE names a profile neither file has, or only one of the two keys is set;
   EXIT_CORRUPT_INPUT for a file that is not INI text. */
int s3_credentials_load(struct s3_credentials *credentials, bool anonymous);
void s3_credentials_free(struct s3_credentials *credentials);

/* The credentials of this process, loaded once (with the anonymity s3_credentials_configure set);
   NULL with the message set when loading failed. */
const struct s3_credentials *s3_credentials_shared(void);

/* Makes the shared credentials anonymous (--no-sign-request) and TLS unverified (--insecure);
   before s3_credentials_shared. */
void s3_credentials_configure(bool anonymous, bool insecure);

#endif
