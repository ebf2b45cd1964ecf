/* fuel export -o s3://BUCKET/PREFIX: the sets exported into a local staging, then published whole
   in the bucket, the earlier sets' entries the new ones lack deleted last (fuel-s3(7)). */
#ifndef FUEL_EXPORT_STORE_H
#define FUEL_EXPORT_STORE_H

#include "exporters/export_driver.h"

/* Exports REQUEST (its directory an s3:// URL) and publishes it, printing each listing's URL.
   The codes of export_run and s3_publish_set. */
int export_to_store(struct export_request *request);

#endif
