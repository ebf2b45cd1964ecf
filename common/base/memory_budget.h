/* The bytes images in flight may hold together, whatever the thread count: a budget taken before
   an image's buffers are made and given back once they are done with. */
#ifndef FUEL_MEMORY_BUDGET_H
#define FUEL_MEMORY_BUDGET_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* What the images of one conversion or pack hold at most besides the largest one: the decoding
   ones (MEMORY_BUDGET_IN_FLIGHT) and the buffers kept from one image to the next
   (MEMORY_BUDGET_KEPT). One image larger than the budget is decoded alone, so peak memory stays
   within MEMORY_BUDGET_BYTES plus one image at the pixel limit. */
#define MEMORY_BUDGET_BYTES (UINT64_C(64) << 20)
#define MEMORY_BUDGET_KEPT (UINT64_C(16) << 20)
#define MEMORY_BUDGET_IN_FLIGHT (MEMORY_BUDGET_BYTES - MEMORY_BUDGET_KEPT)

struct memory_budget {
    pthread_mutex_t lock;
    pthread_cond_t given;
    uint64_t limit;
    uint64_t taken;
};

/* A budget of LIMIT bytes, none taken. EXIT_OTHER when the lock cannot be made. */
int memory_budget_init(struct memory_budget *budget, uint64_t limit);

void memory_budget_destroy(struct memory_budget *budget);

/* Whether BYTES may be taken now: they fit beside what is taken, or nothing is taken (a request
   larger than the whole budget passes alone). */
bool memory_budget_fits(struct memory_budget *budget, uint64_t bytes);

/* Takes BYTES, first waiting until they fit. Only for takers that give back without waiting on
   anything else (a decoding whose buffers are freed when it ends), or it could wait forever. */
void memory_budget_take(struct memory_budget *budget, uint64_t bytes);

/* Takes BYTES now, whether they fit or not (a caller that checked memory_budget_fits). */
void memory_budget_charge(struct memory_budget *budget, uint64_t bytes);

void memory_budget_give(struct memory_budget *budget, uint64_t bytes);

/* What is taken now. */
uint64_t memory_budget_taken(struct memory_budget *budget);

#endif
