/* Python Fuel's batch messages (fuel.server.send_arrays): a JSON header holding one numpy .npy
   header per array, then one frame per array in C order; {"stop": true} ends an epoch. */
#ifndef FUEL_FUEL_WIRE_H
#define FUEL_FUEL_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* What numpy's header_data_from_array_1_0 says of one array. */
struct wire_array {
    const char *descr; /* numpy's dtype string: "|u1", "<f4" */
    int rank;
    const uint64_t *shape;
};

/* The header frame for ARRAYS[0..COUNT), as pyzmq's send_json writes it:
   [{"shape": [128, 3, 32, 32], "fortran_order": false, "descr": "|u1"}, ...]. The caller frees
   it; NULL when out of memory. */
char *wire_header(const struct wire_array *arrays, size_t count);

/* The single frame that ends an epoch; recv_arrays raises StopIteration on it. */
extern const char wire_stop_message[];

#endif
