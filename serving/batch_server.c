/* Sends batches over ZeroMQ without copying their arrays: each frame takes over its buffer. */
#include "batch_server.h"

#include "common/base/error.h"
#include "fuel_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

/* How long a blocked send waits before looking at the stop flag again. */
#define SEND_WAIT_MS 100

int batch_server_bind(struct batch_server *server, const char *endpoint, int hwm,
                      int send_buffer)
{
    int wait = SEND_WAIT_MS;
    /* ZeroMQ reads -1, not 0, as "leave the kernel's size". */
    int buffer = send_buffer > 0 ? send_buffer : -1;
    *server = (struct batch_server){.endpoint = endpoint};
    server->context = zmq_ctx_new();
    server->socket = server->context != NULL ? zmq_socket(server->context, ZMQ_PUSH) : NULL;
    if (server->socket == NULL ||
        zmq_setsockopt(server->socket, ZMQ_SNDHWM, &hwm, sizeof hwm) != 0 ||
        zmq_setsockopt(server->socket, ZMQ_SNDTIMEO, &wait, sizeof wait) != 0 ||
        zmq_setsockopt(server->socket, ZMQ_SNDBUF, &buffer, sizeof buffer) != 0) {
        int code = error_set(EXIT_OTHER, "cannot make a ZeroMQ socket: %s", zmq_strerror(errno));
        batch_server_close(server, false, NULL);
        return code;
    }
    if (zmq_bind(server->socket, endpoint) != 0) {
        int code = error_set(EXIT_OTHER, "cannot bind: %s: %s", endpoint, zmq_strerror(errno));
        batch_server_close(server, false, NULL);
        return code;
    }
    return EXIT_OK;
}

/* ZeroMQ's I/O thread calls this once a frame is sent: HINT is the array's pool. */
static void array_release(void *data, void *hint)
{
    buffer_pool_give(hint, data);
}

/* Sends MESSAGE (closed either way), retrying while the high-water mark holds it back. */
static int frame_send(struct batch_server *server, zmq_msg_t *message, int flags,
                      volatile sig_atomic_t *stop)
{
    while (zmq_msg_send(message, server->socket, flags) < 0) {
        if ((errno != EAGAIN && errno != EINTR) || *stop) {
            int code = *stop ? EXIT_OK
                             : error_set(EXIT_OTHER, "cannot send: %s: %s", server->endpoint,
                                         zmq_strerror(errno));
            zmq_msg_close(message);
            return code;
        }
    }
    return EXIT_OK;
}

/* Sends BATCH as one multipart message (or the stop message); its arrays go to the socket. */
static int batch_send(struct batch_server *server, struct served_batch *batch,
                      volatile sig_atomic_t *stop)
{
    zmq_msg_t message;
    const char *header = batch->end_of_epoch ? wire_stop_message : batch->header;
    size_t frames = batch->end_of_epoch ? 0 : batch->array_count;
    if (zmq_msg_init_size(&message, strlen(header)) != 0)
        return error_set(EXIT_OTHER, "cannot send: out of memory");
    memcpy(zmq_msg_data(&message), header, strlen(header));
    int result = frame_send(server, &message, frames > 0 ? ZMQ_SNDMORE : 0, stop);
    for (size_t index = 0; result == EXIT_OK && !*stop && index < frames; index++) {
        if (zmq_msg_init_data(&message, batch->arrays[index], batch->sizes[index], array_release,
                              batch->pools[index]) != 0)
            return error_set(EXIT_OTHER, "cannot send: out of memory");
        batch->arrays[index] = NULL;
        result = frame_send(server, &message, index + 1 < frames ? ZMQ_SNDMORE : 0, stop);
    }
    return result;
}

int batch_server_run(struct batch_server *server, struct batch_queue *queue,
                     volatile sig_atomic_t *stop, batch_sent_callback *sent, void *context)
{
    while (!*stop) {
        struct served_batch *batch;
        enum queue_take taken = batch_queue_take(queue, &batch, SEND_WAIT_MS);
        if (taken == QUEUE_FINISHED)
            return EXIT_OK;
        if (taken == QUEUE_FAILED)
            return error_set(queue->failure, "%s", queue->message);
        if (taken == QUEUE_EMPTY)
            continue;
        int result = batch_send(server, batch, stop);
        if (result == EXIT_OK && !*stop && sent != NULL)
            sent(batch, context);
        served_batch_free(batch);
        if (result != EXIT_OK)
            return result;
    }
    return EXIT_OK;
}

void batch_server_close(struct batch_server *server, bool deliver, volatile sig_atomic_t *stop)
{
    int linger = deliver ? -1 : 0;
    if (server->socket != NULL) {
        zmq_setsockopt(server->socket, ZMQ_LINGER, &linger, sizeof linger);
        zmq_close(server->socket);
    }
    /* Terminating waits for delivery; a stop signal interrupts it and leaves the rest to exit. */
    while (server->context != NULL && zmq_ctx_term(server->context) != 0 && errno == EINTR)
        if (stop != NULL && *stop)
            break;
    *server = (struct batch_server){0};
}
