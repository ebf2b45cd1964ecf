/* The sending side of `fuel serve`: a ZeroMQ PUSH socket that sends the reader's batches in
   Fuel's protocol, fair-queued between the connected clients. */
#ifndef FUEL_BATCH_SERVER_H
#define FUEL_BATCH_SERVER_H

#include "batch_queue.h"

#include <signal.h>
#include <stdbool.h>

struct batch_server {
    void *context;
    void *socket;
    const char *endpoint;
};

/* Binds a PUSH socket with send high-water mark HWM to ENDPOINT, each connection's kernel send
   buffer SEND_BUFFER bytes (0: the kernel's own sizing). EXIT_OTHER naming the endpoint when it
   is in use or invalid. */
int batch_server_bind(struct batch_server *server, const char *endpoint, int hwm,
                      int send_buffer);

/* Called after each message is handed to the socket. */
typedef void batch_sent_callback(const struct served_batch *batch, void *context);

/* Sends what QUEUE yields until it is finished (EXIT_OK), its producer failed (that code, the
   error set here) or *STOP is non-zero (EXIT_OK, checked every 100 ms). */
int batch_server_run(struct batch_server *server, struct batch_queue *queue,
                     volatile sig_atomic_t *stop, batch_sent_callback *sent, void *context);

/* Closes the socket. DELIVER waits until every message sent is passed on (or *STOP becomes
   non-zero); otherwise what is still queued is dropped. */
void batch_server_close(struct batch_server *server, bool deliver, volatile sig_atomic_t *stop);

#endif
