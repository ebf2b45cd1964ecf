/* bench/serve.sh's baseline: pushes the messages of one epoch of CIFAR-10 train in batches from
   memory over ZeroMQ (the same header, frame sizes and stop message as fuel serve), without
   copying, with fuel serve's socket options: the transport's floor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: serve_baseline EXAMPLES BATCH_SIZE SEND_BUFFER ENDPOINT\n");
        return 2;
    }
    long examples = atol(argv[1]), batch_size = atol(argv[2]);
    /* As fuel serve's --send-buffer: 0 leaves the size to the kernel (ZeroMQ's -1). */
    int send_buffer = atoi(argv[3]);
    send_buffer = send_buffer > 0 ? send_buffer : -1;
    size_t example_bytes = 3 * 32 * 32;
    unsigned char *features = malloc(batch_size * example_bytes), *targets = malloc(batch_size);
    for (size_t index = 0; index < batch_size * example_bytes; index++)
        features[index] = (unsigned char)(index * 7);
    memset(targets, 3, batch_size);
    void *context = zmq_ctx_new();
    void *socket = zmq_socket(context, ZMQ_PUSH);
    int hwm = 10, linger = -1;
    zmq_setsockopt(socket, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(socket, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(socket, ZMQ_SNDBUF, &send_buffer, sizeof send_buffer);
    if (zmq_bind(socket, argv[4]) != 0) {
        fprintf(stderr, "serve_baseline: cannot bind %s\n", argv[4]);
        return 1;
    }
    fprintf(stderr, "serve_baseline: ready\n");
    for (long first = 0; first < examples; first += batch_size) {
        long count = examples - first < batch_size ? examples - first : batch_size;
        char header[256];
        int length = snprintf(header, sizeof header,
                              "[{\"shape\": [%ld, 3, 32, 32], \"fortran_order\": false, \"descr\": "
                              "\"|u1\"}, {\"shape\": [%ld, 1], \"fortran_order\": false, "
                              "\"descr\": \"|u1\"}]", count, count);
        /* The arrays go without a copy, as fuel serve sends them: the transport's floor. */
        zmq_msg_t message;
        zmq_send(socket, header, length, ZMQ_SNDMORE);
        zmq_msg_init_data(&message, features, count * example_bytes, NULL, NULL);
        zmq_msg_send(&message, socket, ZMQ_SNDMORE);
        zmq_msg_init_data(&message, targets, count, NULL, NULL);
        zmq_msg_send(&message, socket, 0);
    }
    zmq_send(socket, "{\"stop\": true}", 14, 0);
    zmq_close(socket);
    zmq_ctx_term(context);
    free(features);
    free(targets);
    return 0;
}
