/* What the shared s3:// options make of the credentials every s3:// request uses. */
#include "store_options.h"

#include "common/download/s3_credentials.h"

void store_settings_apply(const struct store_settings *settings)
{
    s3_credentials_configure(settings->no_sign_request, settings->insecure);
}
