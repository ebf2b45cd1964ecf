#!/usr/bin/python3
"""A TFRecord reader and tf.train.Example decoder written from the formats' specifications, for
the tests of fuel's writers (nothing here is shared with the C code).

  tfrecord.py unframe FILE OUT  checks both CRC-32Cs of every record, writes the records' data
                                one after the other to OUT, prints each record's length
  tfrecord.py examples FILE     decodes each record as a tf.train.Example from the protobuf wire
                                format: one JSON line per record, features in the order written
  tfrecord.py protobuf FILE     the same with the protobuf library (python3-protobuf) from a
                                descriptor built here, features sorted; each record must also be
                                what the library's deterministic serialisation gives
  tfrecord.py crc32c TEXT       the CRC-32C of TEXT's UTF-8 bytes, as 0x%08x

A feature prints as {"bytes_list": [HEX, ...]}, {"float_list": [BITS, ...]} (each float's IEEE
754 bits in hex, exact) or {"int64_list": [INT, ...]}. Errors: one line on stderr, exit 1."""
import json
import struct
import sys

# TFRecord: uint64 length, uint32 masked CRC-32C of the length's 8 bytes, the data, uint32 masked
# CRC-32C of the data, all little endian. CRC-32C: the Castagnoli polynomial, reflected.
CASTAGNOLI = 0x82F63B78
TABLE = []
for byte in range(256):
    crc = byte
    for _ in range(8):
        crc = (crc >> 1) ^ CASTAGNOLI if crc & 1 else crc >> 1
    TABLE.append(crc)


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data):
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def read_records(path):
    with open(path, 'rb') as file:
        data = file.read()
    records, offset = [], 0
    while offset < len(data):
        number = len(records)
        if len(data) - offset < 12:
            raise ValueError(f'record {number}: truncated length')
        length_bytes = data[offset:offset + 8]
        (length,) = struct.unpack('<Q', length_bytes)
        (length_crc,) = struct.unpack('<I', data[offset + 8:offset + 12])
        if length_crc != masked_crc(length_bytes):
            raise ValueError(f'record {number}: length CRC mismatch')
        start = offset + 12
        if len(data) - start < length + 4:
            raise ValueError(f'record {number}: truncated data')
        payload = data[start:start + length]
        (data_crc,) = struct.unpack('<I', data[start + length:start + length + 4])
        if data_crc != masked_crc(payload):
            raise ValueError(f'record {number}: data CRC mismatch')
        records.append(payload)
        offset = start + length + 4
    return records


# The protobuf wire format: each field a varint key (field number << 3 | wire type), then a
# varint (type 0), 8 bytes (1), a varint length and that many bytes (2) or 4 bytes (5).
def varint(data, offset):
    value = 0
    for index in range(10):
        if offset + index >= len(data):
            raise ValueError('truncated varint')
        byte = data[offset + index]
        value |= (byte & 0x7F) << (7 * index)
        if not byte & 0x80:
            if value >> 64:
                raise ValueError('varint beyond 64 bits')
            return value, offset + index + 1
    raise ValueError('varint longer than 10 bytes')


def fields(data):
    """(field number, wire type, value) of each field of a message: an int or bytes."""
    offset = 0
    while offset < len(data):
        key, offset = varint(data, offset)
        number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            value, offset = varint(data, offset)
        elif wire_type == 2:
            length, offset = varint(data, offset)
            if offset + length > len(data):
                raise ValueError('truncated length-delimited field')
            value, offset = data[offset:offset + length], offset + length
        elif wire_type in (1, 5):
            size = 8 if wire_type == 1 else 4
            if offset + size > len(data):
                raise ValueError('truncated fixed-size field')
            value, offset = data[offset:offset + size], offset + size
        else:
            raise ValueError(f'wire type {wire_type}')
        yield number, wire_type, value


def signed(value):
    return value - (1 << 64) if value >> 63 else value


def decode_list(kind, data):
    """A BytesList, FloatList or Int64List: field 1 repeated; numbers packed or not."""
    values = []
    for number, wire_type, value in fields(data):
        if number != 1:
            raise ValueError(f'{kind}: field {number}')
        if kind == 'bytes_list' and wire_type == 2:
            values.append(value.hex())
        elif kind == 'float_list' and wire_type == 2 and len(value) % 4 == 0:
            values.extend(value[index:index + 4][::-1].hex() for index in range(0, len(value), 4))
        elif kind == 'float_list' and wire_type == 5:
            values.append(value[::-1].hex())
        elif kind == 'int64_list' and wire_type == 2:
            offset = 0
            while offset < len(value):
                number_value, offset = varint(value, offset)
                values.append(signed(number_value))
        elif kind == 'int64_list' and wire_type == 0:
            values.append(signed(value))
        else:
            raise ValueError(f'{kind}: wire type {wire_type}')
    return values


KINDS = {1: 'bytes_list', 2: 'float_list', 3: 'int64_list'}


def only_field(data, what, wanted):
    """The value of the one length-delimited field of DATA, whose number is in WANTED."""
    found = list(fields(data))
    if len(found) != 1 or found[0][0] not in wanted or found[0][1] != 2:
        raise ValueError(f'{what}: fields {[(number, kind) for number, kind, _ in found]}')
    return found[0][0], found[0][2]


def decode_example(data):
    """Example { Features features = 1 }, Features { map<string, Feature> feature = 1 }: a map
    is a repeated entry message { string key = 1; Feature value = 2 }."""
    _, features = only_field(data, 'Example', (1,))
    decoded = {}
    for number, wire_type, entry in fields(features):
        if number != 1 or wire_type != 2:
            raise ValueError(f'Features: field {number}')
        parts = {part_number: value for part_number, part_type, value in fields(entry)
                 if part_type == 2}
        if set(parts) != {1, 2} or len(list(fields(entry))) != 2:
            raise ValueError('feature entry without exactly a key and a value')
        key = parts[1].decode('utf-8')
        if key in decoded:
            raise ValueError(f'feature {key} twice')
        kind_number, payload = only_field(parts[2], f'Feature {key}', KINDS)
        decoded[key] = {KINDS[kind_number]: decode_list(KINDS[kind_number], payload)}
    return decoded


def example_class():
    """tf.train.Example's message class, from a descriptor of feature.proto's messages."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    file = descriptor_pb2.FileDescriptorProto(name='fuel_feature.proto', package='fuel_test',
                                              syntax='proto3')
    field = descriptor_pb2.FieldDescriptorProto
    optional, repeated = field.LABEL_OPTIONAL, field.LABEL_REPEATED

    def message(name, *members, parent=None):
        described = (parent.nested_type if parent is not None else file.message_type).add(name=name)
        for number, (member, kind, label, type_name) in enumerate(members, 1):
            described.field.add(name=member, number=number, type=kind, label=label,
                                type_name=type_name)
        return described

    message('BytesList', ('value', field.TYPE_BYTES, repeated, None))
    message('FloatList', ('value', field.TYPE_FLOAT, repeated, None)).field[0].options.packed = True
    message('Int64List', ('value', field.TYPE_INT64, repeated, None)).field[0].options.packed = True
    feature = message('Feature', ('bytes_list', field.TYPE_MESSAGE, optional, '.fuel_test.BytesList'),
                      ('float_list', field.TYPE_MESSAGE, optional, '.fuel_test.FloatList'),
                      ('int64_list', field.TYPE_MESSAGE, optional, '.fuel_test.Int64List'))
    feature.oneof_decl.add(name='kind')
    for member in feature.field:
        member.oneof_index = 0
    features = message('Features', ('feature', field.TYPE_MESSAGE, repeated,
                                    '.fuel_test.Features.FeatureEntry'))
    entry = message('FeatureEntry', ('key', field.TYPE_STRING, optional, None),
                    ('value', field.TYPE_MESSAGE, optional, '.fuel_test.Feature'), parent=features)
    entry.options.map_entry = True
    message('Example', ('features', field.TYPE_MESSAGE, optional, '.fuel_test.Features'))
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    described = pool.FindMessageTypeByName('fuel_test.Example')
    if hasattr(message_factory, 'GetMessageClass'):
        return message_factory.GetMessageClass(described)
    return message_factory.MessageFactory(pool).GetPrototype(described)


def decode_with_protobuf(example_type, data):
    example = example_type()
    example.ParseFromString(data)
    if example.SerializeToString(deterministic=True) != data:
        raise ValueError('not the bytes of protobuf\'s deterministic serialisation')
    decoded = {}
    for key in sorted(example.features.feature):
        feature = example.features.feature[key]
        kind = feature.WhichOneof('kind')
        if kind is None:
            raise ValueError(f'feature {key} without a list')
        values = list(getattr(feature, kind).value)
        if kind == 'bytes_list':
            values = [value.hex() for value in values]
        elif kind == 'float_list':
            values = [struct.pack('>f', value).hex() for value in values]
        decoded[key] = {kind: values}
    return decoded


def main(arguments):
    command = arguments[0]
    if command == 'crc32c':
        print(f'0x{crc32c(arguments[1].encode()):08x}')
    elif command == 'unframe':
        records = read_records(arguments[1])
        with open(arguments[2], 'wb') as out:
            for record in records:
                out.write(record)
                print(len(record))
    elif command == 'examples':
        for record in read_records(arguments[1]):
            print(json.dumps(decode_example(record), separators=(',', ':')))
    elif command == 'protobuf':
        example_type = example_class()
        for record in read_records(arguments[1]):
            print(json.dumps(decode_with_protobuf(example_type, record), separators=(',', ':')))
    else:
        raise ValueError(f'unknown command {command}')


if __name__ == '__main__':
    try:
        main(sys.argv[1:])
    except ValueError as error:
        print(f'tfrecord.py: {sys.argv[2] if len(sys.argv) > 2 else ""}: {error}', file=sys.stderr)
        sys.exit(1)
