/* bench/serve.sh's client: pulls one epoch of Fuel's messages and prints what it took. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

static double now(void)
{
    struct timespec clock;
    clock_gettime(CLOCK_MONOTONIC, &clock);
    return clock.tv_sec + clock.tv_nsec / 1e9;
}

/* The example count of the first array of a header frame: [{"shape": [N, ... */
static unsigned long long first_dimension(const char *header, size_t size)
{
    char text[256];
    size_t length = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, header, length);
    text[length] = '\0';
    const char *shape = strstr(text, "\"shape\": [");
    return shape != NULL ? strtoull(shape + strlen("\"shape\": ["), NULL, 10) : 0;
}

/* Receives the frames of one message; returns 1 for a batch, 0 for the stop message. */
static int message_receive(void *socket, unsigned long long *bytes, unsigned long long *examples)
{
    zmq_msg_t frame;
    zmq_msg_init(&frame);
    if (zmq_msg_recv(&frame, socket, 0) < 0) {
        fprintf(stderr, "serve_client: receive failed: %s\n", zmq_strerror(zmq_errno()));
        exit(1);
    }
    int batch = strncmp(zmq_msg_data(&frame), "{\"stop\"", 7) != 0;
    if (batch)
        *examples += first_dimension(zmq_msg_data(&frame), zmq_msg_size(&frame));
    while (zmq_msg_more(&frame)) {
        zmq_msg_recv(&frame, socket, 0);
        *bytes += zmq_msg_size(&frame);
    }
    zmq_msg_close(&frame);
    return batch;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: serve_client ENDPOINT\n");
        return 2;
    }
    void *context = zmq_ctx_new();
    void *socket = zmq_socket(context, ZMQ_PULL);
    int hwm = 10, timeout = 60000;
    zmq_setsockopt(socket, ZMQ_RCVHWM, &hwm, sizeof hwm);
    zmq_setsockopt(socket, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    double start = now();
    if (zmq_connect(socket, argv[1]) != 0) {
        fprintf(stderr, "serve_client: cannot connect: %s\n", argv[1]);
        return 1;
    }
    unsigned long long batches = 0, bytes = 0, examples = 0;
    while (message_receive(socket, &bytes, &examples))
        batches++;
    double seconds = now() - start;
    /* seconds batches examples bytes batches/s MB/s */
    printf("%.6f %llu %llu %llu %.1f %.1f\n", seconds, batches, examples, bytes,
           batches / seconds, bytes / seconds / 1e6);
    zmq_close(socket);
    zmq_ctx_term(context);
    return 0;
}
