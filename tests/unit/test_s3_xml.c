/* Unit tests of the S3 XML reader: errors, listings of objects and uploads, bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/base/error.h"
#include "common/download/s3_xml.h"

#include <stdlib.h>
#include <string.h>

static int parse(const char *text, struct s3_answer *answer)
{
    return s3_xml_parse(text, strlen(text), "s3://fuel/x", answer);
}

static void test_error(void **state)
{
    (void)state;
    struct s3_answer answer;
    assert_int_equal(parse("<?xml version='1.0' encoding='UTF-8'?>\n<Error><Code>NoSuchBucket"
                           "</Code><Message>The specified bucket does not exist.</Message>"
                           "<RequestId>tx1</RequestId></Error>", &answer), EXIT_OK);
    assert_string_equal(answer.code, "NoSuchBucket");
    assert_string_equal(answer.message, "The specified bucket does not exist.");
    s3_answer_free(&answer);
}

static void test_object_listing(void **state)
{
    (void)state;
    struct s3_answer answer;
    assert_int_equal(parse("<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                           "<Name>fuel</Name><IsTruncated>true</IsTruncated>"
                           "<NextContinuationToken>t&amp;1</NextContinuationToken>"
                           "<Contents><Key>m/a &lt;1&gt;</Key><Size>12</Size></Contents>"
                           "<Contents><Key>m/b</Key><Size>18446744073709551615</Size></Contents>"
                           "</ListBucketResult>", &answer), EXIT_OK);
    assert_true(answer.truncated);
    assert_string_equal(answer.next_token, "t&1");
    assert_int_equal(answer.count, 2);
    assert_string_equal(answer.entries[0].key, "m/a <1>");
    assert_int_equal(answer.entries[0].size, 12);
    assert_true(answer.entries[1].size == UINT64_MAX);
    assert_null(answer.upload_id);
    s3_answer_free(&answer);
}

static void test_upload_listing_and_initiate(void **state)
{
    (void)state;
    struct s3_answer answer;
    assert_int_equal(parse("<ListMultipartUploadsResult><Bucket>fuel</Bucket><KeyMarker/>"
                           "<NextKeyMarker>m/b</NextKeyMarker><NextUploadIdMarker>u2"
                           "</NextUploadIdMarker><IsTruncated>false</IsTruncated>"
                           "<Upload><Key>m/a</Key><UploadId>u1</UploadId><Owner><ID>x</ID>"
                           "</Owner></Upload><Upload><Key>m/b</Key><UploadId>u2</UploadId>"
                           "</Upload></ListMultipartUploadsResult>", &answer), EXIT_OK);
    assert_false(answer.truncated);
    assert_int_equal(answer.count, 2);
    assert_string_equal(answer.entries[1].key, "m/b");
    assert_string_equal(answer.entries[1].upload_id, "u2");
    assert_string_equal(answer.next_key_marker, "m/b");
    assert_string_equal(answer.next_upload_marker, "u2");
    assert_null(answer.upload_id);
    s3_answer_free(&answer);
    assert_int_equal(parse("<InitiateMultipartUploadResult><Bucket>fuel</Bucket><Key>m/a</Key>"
                           "<UploadId>Zm9v/YmFy</UploadId></InitiateMultipartUploadResult>",
                           &answer), EXIT_OK);
    assert_string_equal(answer.upload_id, "Zm9v/YmFy");
    s3_answer_free(&answer);
}

static void test_malformed_and_bounded(void **state)
{
    (void)state;
    struct s3_answer answer;
    assert_int_equal(parse("<Error><Code>x</Error>", &answer), EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "cannot read the answer: s3://fuel/x: mismatched tag"));
    assert_int_equal(parse("not xml", &answer), EXIT_CORRUPT_INPUT);
    assert_int_equal(parse("<a><b><c><d><e><f><g><h><i/></h></g></f></e></d></c></b></a>", &answer),
                     EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "nested too deep"));
    assert_int_equal(s3_xml_parse("<a/>", S3_XML_LIMIT + 1, "s3://fuel/x", &answer),
                     EXIT_CORRUPT_INPUT);
    assert_non_null(strstr(error_message(), "answer too large"));
    /* An overlong code is cut, a key's text capped. */
    char *text = malloc(20000);
    strcpy(text, "<Error><Code>");
    memset(text + strlen(text), 'C', 10000);
    strcpy(text + 13 + 10000, "</Code></Error>");
    assert_int_equal(parse(text, &answer), EXIT_OK);
    assert_int_equal(strlen(answer.code), sizeof answer.code - 1);
    s3_answer_free(&answer);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error),
        cmocka_unit_test(test_object_listing),
        cmocka_unit_test(test_upload_listing_and_initiate),
        cmocka_unit_test(test_malformed_and_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
