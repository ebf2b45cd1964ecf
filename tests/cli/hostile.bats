#!/usr/bin/env bats
# Hostile inputs (built by tests/hostile/make_corpus): every one gets a clear one-line error and
# its documented exit code, no crash, no file left under a final name, no temporary left behind.

bats_require_minimum_version 1.5.0

# One case a line: input (under the corpus), expected exit code, expected message fragment.
# DATASET/CASE runs fuel-convert DATASET -d CASE; info/FILE runs fuel-info FILE; fuelrc/FILE
# runs fuel-info with FUEL_CONFIG=FILE; manifest/FILE runs fuel-download -h with
# FUEL_EXTRA_DOWNLOADERS=FILE; pack/CASE runs fuel-pack CASE/spec.yaml; reproduce/FILE runs
# fuel-reproduce FILE with its scratch OUT.
CASES='
mnist/zero_images                  0  /mnist.hdf5
mnist/huge_count                   4  IDX header declares more data than the file can hold: CASE/train-images-idx3-ubyte.gz: 3367254347520 bytes declared, a gzipped file of
mnist/huge_image                   4  IDX header declares more data than the file can hold: CASE/train-images-idx3-ubyte.gz: 51538034700 bytes declared
mnist/wrong_magic                  4  not an MNIST image file: CASE/train-images-idx3-ubyte.gz: magic number 2049
mnist/rank_four                    4  not an MNIST image file: CASE/train-images-idx3-ubyte.gz: magic number 2052
mnist/float_elements               4  IDX header declares more data than the file can hold: CASE/train-images-idx3-ubyte.gz: 37632 bytes declared
mnist/truncated_gzip               4  cannot read IDX data: CASE/train-images-idx3-ubyte.gz: unexpected end of file
mnist/trailing_data                4  cannot read IDX data: CASE/train-images-idx3-ubyte.gz: more data than the header declares
mnist/not_gzip                     4  cannot read IDX header: CASE/train-images-idx3-ubyte.gz: invalid compressed data--format violated
mnist/reserved_flags               4  cannot read IDX header: CASE/train-images-idx3-ubyte.gz: reserved flags 0xe0 set in the gzip header -- not supported
mnist/empty_file                   4  cannot read IDX header: CASE/train-images-idx3-ubyte.gz: unexpected end of file
mnist/count_mismatch               4  count mismatch: CASE/train-images-idx3-ubyte.gz: 12 images but CASE/train-labels-idx1-ubyte.gz has 11 labels
mnist/directory_input              4  not a regular file: CASE/train-images-idx3-ubyte.gz: exists but is a directory
mnist/symlink_loop                 3  CASE/train-images-idx3-ubyte.gz
cifar10/os_system_global           4  cifar-10-batches-py/data_batch_1: unsupported pickle construct: opcode '"'c'"' (0x63) at offset 16: global posix.system is not allowed
cifar10/eval_reduce                4  unsupported pickle construct: opcode '"'c'"' (0x63) at offset 0: global __builtin__.eval is not allowed
cifar10/deep_nesting               4  at offset 66: nesting too deep
cifar10/memo_bomb                  4  cifar-10-batches-py/data_batch_1: no (N, 3072) uint8 '"'data'"'
cifar10/wrong_shape                4  not a CIFAR batch: CASE/cifar-10-python.tar.gz: cifar-10-batches-py/data_batch_1: no (N, 3072) uint8 '"'data'"'
cifar10/labels_not_ints            4  '"'labels'"' entry 0 is not a label below 10
cifar10/huge_member                4  refusing archive member: CASE/cifar-10-python.tar.gz: cifar-10-batches-py/data_batch_1: declares 4294967296 bytes, more than an archive of 88 bytes can hold
cifar10/parent_member              4  refusing archive member: CASE/cifar-10-python.tar.gz: ../../escaped: path with a ".." component
cifar10/absolute_member            4  refusing archive member: CASE/cifar-10-python.tar.gz: /tmp/escaped: absolute path
cifar10/symlink_member             4  refusing archive member: CASE/cifar-10-python.tar.gz: cifar-10-batches-py/link: symbolic link
cifar10/missing_batch              4  CASE/cifar-10-python.tar.gz: cifar-10-batches-py/data_batch_3
cifar10/not_an_archive             4  cannot open archive: CASE/cifar-10-python.tar.gz: Unrecognized archive format
cifar10/truncated_archive          4  cannot read archive: CASE/cifar-10-python.tar.gz: cifar-10-batches-py/data_batch_2: unexpected end of file
iris/nul_byte                      4  malformed line: CASE/iris.data:4: NUL byte in the line
iris/not_a_number                  4  malformed line: CASE/iris.data:5: not a decimal number: '"'three'"'
iris/five_numbers                  4  malformed line: CASE/iris.data:6: not one class name
iris/unknown_class                 4  unknown class: CASE/iris.data:7: '"'Iris-hostilis'"'
iris/long_line                     4  malformed line: CASE/iris.data:8: not one class name
binarized_mnist/value_two          4  malformed amat file: CASE/binarized_mnist_valid.amat:1: value other than 0 or 1
binarized_mnist/short_row          4  malformed amat file: CASE/binarized_mnist_valid.amat:1: fewer values than 784
binarized_mnist/binary_garbage     4  malformed amat file: CASE/binarized_mnist_valid.amat:1: value other than 0 or 1
svhn1/digitstruct_not_hdf5         4  cannot read MATLAB 7.3 file: CASE/test.tar.gz: test/digitStruct.mat: file: not an HDF5 file
svhn1/compact_without_data         4  cannot read MATLAB 7.3 file: CASE/test.tar.gz: test/digitStruct.mat: digitStruct/name: stored data shorter than its dimensions
svhn1/continuation_3tb             4  cannot read MATLAB 7.3 file: CASE/test.tar.gz: test/digitStruct.mat: digitStruct/bbox(1).label: continuation chunk beyond the end of the file
svhn1/root_heap_1_7gb              4  cannot read MATLAB 7.3 file: CASE/test.tar.gz: test/digitStruct.mat: /: local heap beyond the end of the file
svhn1/png_bomb                     4  cannot decode PNG: CASE/test.tar.gz: test/1.png: declares 8000x8000 pixels
svhn1/png_garbage                  4  cannot decode PNG: CASE/test.tar.gz: test/2.png:
svhn1/member_escape                4  refusing archive member: CASE/extra.tar.gz: extra/../../../tmp/fuel-escaped: path with a ".." component
svhn2/not_a_mat                    4  cannot read MATLAB file: CASE/test_32x32.mat: not a MATLAB level-5 MAT-file
svhn2/huge_dimensions              4  cannot read MATLAB file: CASE/test_32x32.mat: variable X declares 6597069763584 elements but holds 16 bytes
svhn2/inflate_bomb                 4  cannot read MATLAB file: CASE/test_32x32.mat: a compressed element of 17 bytes declares a 4294967040-byte matrix
svhn2/truncated_mat                4  cannot read MATLAB file: CASE/test_32x32.mat: truncated: the element at byte 128 declares
adult/wrong_field_count            4  malformed Adult row: CASE/adult.data:3: 14 fields, not 15
adult/unseen_value                 4  value unseen in adult.data: CASE/adult.test:2: native-country '"'Atlantis'"'
adult/long_line                    4  malformed line: CASE/adult.data:4: longer than 4096 bytes
adult/nul_byte                     4  malformed line: CASE/adult.test:3: NUL byte in the line
adult/byte_order_mark              4  malformed Adult row: CASE/adult.data:1: a UTF-8 byte order mark before the first field: '"'66'"'
adult/empty_file                   4  malformed Adult file: CASE/adult.test: no complete row
adult/negative_age                 4  malformed Adult row: CASE/adult.test:2: age is negative:
caltech16/missing_variable         4  cannot convert CalTech 101 Silhouettes: CASE/caltech101_silhouettes_16_split1.mat: no variable test_labels
caltech16/truncated_mat            4  cannot read MATLAB file: CASE/caltech101_silhouettes_16_split1.mat: truncated: the element at byte
caltech16/label_rows               4  cannot convert CalTech 101 Silhouettes: CASE/caltech101_silhouettes_16_split1.mat: train_labels is 11x1 (rank 2), expected 12x1
caltech16/huge_rows                4  cannot read MATLAB file: CASE/caltech101_silhouettes_16_split1.mat: variable train_data declares 549755813632 elements but holds 16 bytes
ilsvrc2012/inner_escape            4  refusing archive member: CASE/ILSVRC2012_img_train.tar: n01491361.tar: ../../../tmp/fuel-escaped: path with a ".." component
ilsvrc2012/inner_symlink           4  refusing archive member: CASE/ILSVRC2012_img_train.tar: n01491361.tar: link: symbolic link
ilsvrc2012/inner_huge_member       4  refusing archive member: CASE/ILSVRC2012_img_train.tar: n01491361.tar: huge.JPEG: declares 8589934592 bytes, more than an archive of 2560 bytes can hold
ilsvrc2012/jpeg_bomb               4  cannot decode JPEG: CASE/ILSVRC2012_img_val.tar: ILSVRC2012_val_00000002.JPEG: declares 65000x65000 pixels, more than the 178956970 allowed
ilsvrc2012/jpeg_scans              4  cannot decode JPEG: CASE/ILSVRC2012_img_val.tar: ILSVRC2012_val_00000002.JPEG: has more than 500 scans
ilsvrc2012/gzip_bomb               4  image too large: CASE/ILSVRC2012_img_val.tar: ILSVRC2012_val_00000002.JPEG: more than 67108864 bytes once inflated
ilsvrc2012/truth_nul               4  ILSVRC2012_validation_ground_truth.txt: line 1: NUL byte in the line
ilsvrc2012/outer_not_tar           4  cannot open archive: CASE/ILSVRC2012_img_train.tar: Unrecognized archive format
ilsvrc2012/meta_deep_cells         0  /ilsvrc2012.hdf5
celeba/attribute_columns           4  malformed attribute list: CASE/list_attr_celeba.txt:5: 39 values after the image name, expected 40
celeba/attribute_binary            4  malformed attribute list: CASE/list_attr_celeba.txt:1: NUL byte in the line
celeba/attribute_long_line         4  malformed attribute list: CASE/list_attr_celeba.txt:3: line longer than 4096 bytes
celeba/zip_truncated               4  cannot read zip directory: CASE/img_align_celeba.zip: no end of central directory record at its end: truncated or followed by other bytes
celeba/not_a_zip                   4  cannot read zip directory: CASE/img_align_celeba.zip: no end of central directory record
celeba/jpeg_garbage                4  cannot decode JPEG: CASE/img_align_celeba.zip: img_align_celeba/000003.jpg: Not a JPEG file: starts with 0x47 0x49
celeba/jpeg_bomb                   4  cannot decode JPEG: CASE/img_align_celeba.zip: img_align_celeba/000003.jpg: declares 65000x65000 pixels, more than the 16777216 allowed
celeba/jpeg_scans                  4  cannot decode JPEG: CASE/img_align_celeba.zip: img_align_celeba/000003.jpg: has more than 500 scans
celeba/member_escape               4  refusing archive member: CASE/img_align_celeba.zip: ../../../tmp/fuel-escaped: path with a ".." component
celeba/face_parent                 4  refusing archive member: CASE/img_align_celeba.zip: img_align_celeba/../000010.jpg: path with a ".." component
celeba/face_absolute               4  refusing archive member: CASE/img_align_celeba.zip: /img_align_celeba/000010.jpg: absolute path
celeba/directory_count             4  cannot read zip directory: CASE/img_align_celeba.zip: holds 11 entries, its end record lists 65535
dogs_vs_cats/zip_truncated         4  cannot read zip directory: CASE/dogs_vs_cats.train.zip: no end of central directory record at its end: truncated or followed by other bytes
dogs_vs_cats/not_a_zip             4  cannot read zip directory: CASE/dogs_vs_cats.train.zip: no end of central directory record
dogs_vs_cats/jpeg_garbage          4  cannot decode JPEG: CASE/dogs_vs_cats.train.zip: train/dog.1.jpg:
dogs_vs_cats/jpeg_bomb             4  cannot decode JPEG: CASE/dogs_vs_cats.train.zip: train/dog.1.jpg: declares 65000x65000 pixels, more than the 16777216 allowed
dogs_vs_cats/jpeg_scans            4  cannot decode JPEG: CASE/dogs_vs_cats.train.zip: train/dog.1.jpg: has more than 500 scans
dogs_vs_cats/unlabelled            4  not a cat or dog image: CASE/dogs_vs_cats.train.zip: train/hamster.0.jpg: its name starts with neither cat. nor dog.
dogs_vs_cats/directory_order       4  cannot read archive: CASE/dogs_vs_cats.train.zip: train/cat.0.jpg: where its central directory lists train/dog.3.jpg
dogs_vs_cats/overlapping_entries   4  cannot read zip directory: CASE/dogs_vs_cats.train.zip: train/cat.0.jpg: overlaps the entry listed before it (its member at offset 0, that one'"'"'s ends at
dogs_vs_cats/symlink_member        4  refusing archive member: CASE/dogs_vs_cats.train.zip: train/dog.1.jpg: symbolic link
dogs_vs_cats/directory_nul         4  cannot read zip directory: CASE/dogs_vs_cats.train.zip: an entry name holds a NUL byte
info/empty.hdf5                    4  not an HDF5 file: CASE: it is empty
info/text.hdf5                     4  not an HDF5 file: CASE: it does not start with the HDF5 signature
info/truncated.hdf5                4  damaged HDF5 file: CASE: truncated:
info/superblock_only.hdf5          4  damaged HDF5 file: CASE: truncated:
info/no_split.hdf5                 4  not an H5PYDataset file: CASE: no split attribute in the root group
info/split_not_compound.hdf5       4  malformed split attribute: CASE: not a compound array
info/split_wrong_fields.hdf5       4  malformed split attribute: CASE: no field source
info/split_huge_bounds.hdf5        4  check failed: CASE: span outside the source: split train, source features: [-9223372036854775808, 9223372036854775807) but features has 2 examples
fuelrc/unclosed_list               2  malformed config: CASE:1: did not find expected '"','"' or '"']'"'
fuelrc/unknown_key                 2  malformed config: CASE:2: unknown key '"'rm_rf'"'
fuelrc/deep_nesting                2  malformed config: CASE:1: data_path: expected a list of strings, found a list
fuelrc/aliases                     2  malformed config: CASE:1: data_path: expected a list of strings, found an alias (aliases are not supported)
fuelrc/binary                      2  malformed config: CASE:1: control characters are not allowed
fuelrc/tab_indented                2  malformed config: CASE:2: found character that cannot start any token
fuelrc/data_path_map               2  malformed config: CASE:1: data_path: expected a string or a list of strings, found a mapping
manifest/traversal.json            2  malformed manifest: CASE: $.datasets.x.files[0].name: expected a file name without '"'/'"'
manifest/deep.json                 2  malformed manifest: CASE: line 1, column 2049: maximum parsing depth reached
manifest/big_size.json             2  malformed manifest: CASE: line 1, column 75: too big integer
manifest/five_urls.json            2  malformed manifest: CASE: $.datasets.x.files[0].urls: at most 4 URLs
manifest/bad_md5.json              2  malformed manifest: CASE: $.datasets.x.files[0].md5: expected 32 hexadecimal digits
manifest/no_files.json             2  malformed manifest: CASE: $.datasets.x.files: expected a non-empty array of files
manifest/not_utf8.json             2  malformed manifest: CASE: line 1, column 0: unable to decode byte 0xff
pack/unknown_key                   2  malformed spec: CASE/spec.yaml:3: unknown key '"'exmples'"' in split train; did you mean `examples`?
pack/unknown_top_key               2  malformed spec: CASE/spec.yaml:2: unknown key '"'soures'"' in the spec; did you mean `sources`?
pack/yaml_alias                    2  malformed spec: CASE/spec.yaml:3: aliases are not supported
pack/missing_input                 3  not found: CASE/gone.npy
pack/npz_missing_member            3  not found: CASE/x.npz: no member y in the archive
pack/npz_inflation                 4  malformed archive member: CASE/x.npz:x: more data than its .npy header declares
pack/npz_bad_crc                   4  cannot read archive: CASE/x.npz: x.npy: ZIP bad CRC:
pack/object_dtype                  4  cannot read .npy header: CASE/x.npy: dtype '"'|O'"' holds Python objects (a pickle): refused
pack/shape_overflow                4  cannot read .npy header: CASE/x.npy: the shape'"'"'s size overflows 64 bits
pack/shape_beyond_file             4  truncated array: CASE/x.npy: the header declares 40000000000 bytes of data, 40 follow it
pack/truncated_array               4  truncated array: CASE/x.npy: the header declares 32 bytes of data, 29 follow it
pack/header_too_long               4  cannot read .npy header: CASE/x.npy: 1073741836 bytes, more than 65548
pack/counts_disagree               4  example counts disagree: source targets has 95 examples (train.npy 90, test.npy 5), its splits take 100 (train 90, test 10)
pack/indices_out_of_range          4  indices out of range: CASE/train.npy: 100 at position 49, but source x has 100 examples
pack/csv_field_count               4  malformed CSV: CASE/t.csv:4: 2 fields, the header has 3
pack/csv_nul                       4  malformed CSV: CASE/t.csv:3: a NUL byte
pack/csv_bom_inside                4  malformed CSV: CASE/t.csv:3: a byte-order mark (U+FEFF) past the start of the file
pack/npy_header_nul                4  cannot read .npy header: CASE/x.npy: a NUL byte in the header
pack/csv_not_a_number              4  malformed CSV: CASE/t.csv:3: column b: not a number: '"'abc'"'
pack/image_truncated               4  cannot decode JPEG: CASE/pictures/b.jpg: Premature end of JPEG file
pack/image_scans                   4  cannot decode JPEG: CASE/pictures/b.jpg: has more than 500 scans
pack/deep_nesting                  2  malformed spec: CASE/spec.yaml:1: nested more than 64 deep
pack/many_nodes                    2  malformed spec: CASE/spec.yaml:1: more than 262144 nodes
pack/image_garbage                 4  cannot decode image: CASE/pictures/a.png: not a PNG or JPEG file
pack/folder_cycle                  4  folder cycle: CASE/pictures/cat/loop/cat leads back to a folder above it
pack/dtype_mismatch                4  inputs of x disagree: a.npy holds float32, b.npy holds float64; give the source a dtype
pack/value_does_not_fit            4  cannot convert to uint8: source x, example 2: the value 300 does not fit
pack/npy_header_past_end           4  cannot read .npy header: CASE/x.npy: truncated header
pack/csv_empty                     4  malformed CSV: CASE/t.csv: no header row
pack/csv_long_line                 4  malformed CSV: CASE/t.csv:2: a line longer than 1048576 bytes
pack/npz_truncated                 4  cannot read archive: CASE/x.npz: x.npy: Truncated ZIP file data
pack/npz_size_lies                 4  cannot read archive: CASE/x.npz: x.npy: ZIP uncompressed data is wrong size (read 160, expected 4160)
pack/hdf5_scalar                   4  cannot read input: CASE/x.h5:/x: 0 dimensions, not 1 to 8
pack/hdf5_rows_trillion            4  example counts disagree: source x has 1000000000000 examples (x.h5:/x 1000000000000), its splits take 4 (all 4)
reproduce/no_provenance.hdf5       4  no fuel provenance: CASE: no fuel_provenance attribute
reproduce/not_json.hdf5            4  malformed provenance: CASE: not a JSON object: '"'"']'"'"' expected near end of file
reproduce/deep_json.hdf5           4  malformed provenance: CASE: not a JSON object: maximum parsing depth reached
reproduce/nul_in_json.hdf5         4  malformed provenance: CASE: not a JSON object: \u0000 is not allowed without JSON_ALLOW_NUL
reproduce/shell_argv.hdf5          4  malformed provenance: CASE: the recorded command is not fuel'"'"'s: sh
reproduce/huge_argv.hdf5           4  malformed provenance: CASE: no argv: a list of 1 to 4096 strings
reproduce/escaping_name.hdf5       4  hostile provenance: CASE: -r ../../../tmp/fuel-escaped would write outside the output directory
reproduce/absolute_name.hdf5       4  hostile provenance: CASE: --output_filename /tmp/fuel-escaped would write outside the output directory
reproduce/input_traversal.hdf5     4  hostile provenance: CASE: input 1 is not named by a plain file name: ../../../tmp/fuel-escaped
reproduce/unknown_command.hdf5     4  malformed provenance: CASE: unknown command: fuel rm
reproduce/raw_fixture.hdf5         4  malformed provenance: CASE: fuel fixture --raw makes no HDF5 file
'

setup_file() {
    export CORPUS="$BATS_FILE_TMPDIR/corpus"
    bash "$BATS_TEST_DIRNAME/../hostile/make_corpus" "$FUEL_FIXTURES" "$CORPUS"
}

# Runs one case; prints what differs from the table, nothing when it matches.
check_case() {
    local input=$1 expected_status=$2 fragment=$3
    local dataset=${input%%/*} path="$CORPUS/$input" out
    out=$(mktemp -d "$BATS_TEST_TMPDIR/out.XXXXXX")
    fragment=${fragment//CASE/$path}
    case $dataset in
    info) run --separate-stderr timeout 120 fuel-info "$path" ;;
    fuelrc) FUEL_CONFIG=$path run --separate-stderr timeout 120 fuel-info mnist.hdf5 ;;
    manifest) FUEL_EXTRA_DOWNLOADERS=$path run --separate-stderr timeout 120 fuel-download -h ;;
    pack) run --separate-stderr timeout 120 fuel-pack "$path/spec.yaml" -o "$out" ;;
    reproduce) run --separate-stderr timeout 120 fuel-reproduce "$path" --scratch "$out" ;;
    svhn1) run --separate-stderr timeout 120 fuel-convert svhn 1 -d "$path" -o "$out" ;;
    svhn2) run --separate-stderr timeout 120 fuel-convert svhn 2 -d "$path" -o "$out" ;;
    caltech16) run --separate-stderr timeout 120 fuel-convert caltech101_silhouettes 16 -d "$path" -o "$out" ;;
    celeba) run --separate-stderr timeout 120 fuel-convert celeba 64 -d "$path" -o "$out" ;;
    *) run --separate-stderr timeout 120 fuel-convert "$dataset" -d "$path" -o "$out" ;;
    esac
    local shown=$output
    [ "$expected_status" -eq 0 ] || shown=$stderr
    [ "$status" -eq "$expected_status" ] || echo "$input: exit $status, expected $expected_status: $stderr"
    [[ "$shown" == *"$fragment"* ]] || echo "$input: no '$fragment' in: $shown"
    if [ "$expected_status" -ne 0 ]; then
        # One line, from the command itself.
        [ "$(printf '%s\n' "$stderr" | grep -c .)" -le 3 ] || echo "$input: more than one error: $stderr"
        [[ "$stderr" == fuel-* ]] || echo "$input: stderr does not start with the command: $stderr"
        [ -z "$(ls -A "$out")" ] || echo "$input: left $(ls -A "$out")"
    else
        [ -z "$(find "$out" -name '.*')" ] || echo "$input: left a temporary"
    fi
}

@test "every hostile input: its exit code, its message, nothing left behind" {
    failures=""
    count=0
    while read -r input expected_status fragment; do
        [ -n "$input" ] || continue
        count=$((count + 1))
        result=$(check_case "$input" "$expected_status" "$fragment")
        [ -z "$result" ] || failures+="$result"$'\n'
    done <<< "$CASES"
    echo "# $count hostile inputs" >&3
    [ "$count" -ge 50 ]
    [ -z "$failures" ] || { echo "$failures"; false; }
    # Nothing escaped the archives, nothing read was run.
    [ ! -e /tmp/escaped ] && [ ! -e /tmp/fuel-escaped ] && [ ! -e /tmp/fuel-hostile-pwned ]
}

@test "the corpus covers every case of the table and the table every case of the corpus" {
    listed=$(while read -r input rest; do [ -z "$input" ] || echo "$input"; done <<< "$CASES" | sort)
    built=$(cd "$CORPUS" && find . -mindepth 2 -maxdepth 2 | sed 's|^\./||' | sort)
    [ "$listed" = "$built" ]
}
