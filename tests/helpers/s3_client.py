"""boto3, the independent S3 client of the tests: s3_client.py ENDPOINT COMMAND ARGS...
   mb BUCKET... | put BUCKET PREFIX FILE... (each as PREFIX + its base name) | get BUCKET KEY FILE | head BUCKET KEY (prints size, ETag, then
   the metadata as JSON) | ls BUCKET PREFIX (keys, one a line) | uploads BUCKET PREFIX (incomplete
   multipart uploads' keys) | start-upload BUCKET KEY (prints its id) | sync BUCKET PREFIX DIR (every
   object under PREFIX into DIR/KEY-without-PREFIX). Several COMMAND ARGS... separated by "--" run
   in order in one start."""
import json
import os
import sys

import boto3
from botocore.config import Config

endpoint = sys.argv[1]
client = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id="test:tester",
                      aws_secret_access_key="testing", region_name="us-east-1",
                      config=Config(s3={"addressing_style": "path"}))


def run(command, arguments):
    if command == "mb":
        for bucket in arguments:
            client.create_bucket(Bucket=bucket)
    elif command == "put":
        for path in arguments[2:]:
            client.upload_file(path, arguments[0], arguments[1] + os.path.basename(path))
    elif command == "get":
        client.download_file(arguments[0], arguments[1], arguments[2])
    elif command == "head":
        answer = client.head_object(Bucket=arguments[0], Key=arguments[1])
        print(answer["ContentLength"])
        print(answer["ETag"])
        print(json.dumps(answer["Metadata"], sort_keys=True))
    elif command == "ls":
        for page in client.get_paginator("list_objects_v2").paginate(Bucket=arguments[0],
                                                                     Prefix=arguments[1]):
            for entry in page.get("Contents", []):
                print(entry["Key"])
    elif command == "uploads":
        answer = client.list_multipart_uploads(Bucket=arguments[0], Prefix=arguments[1])
        for upload in answer.get("Uploads", []):
            print(upload["Key"])
    elif command == "start-upload":
        print(client.create_multipart_upload(Bucket=arguments[0], Key=arguments[1])["UploadId"])
    elif command == "sync":
        for page in client.get_paginator("list_objects_v2").paginate(Bucket=arguments[0],
                                                                     Prefix=arguments[1]):
            for entry in page.get("Contents", []):
                path = os.path.join(arguments[2], entry["Key"][len(arguments[1]):])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                client.download_file(arguments[0], entry["Key"], path)
    else:
        sys.exit("unknown command " + command)


words = sys.argv[2:]
while words:
    end = words.index("--") if "--" in words else len(words)
    run(words[0], words[1:end])
    words = words[end + 1:]
