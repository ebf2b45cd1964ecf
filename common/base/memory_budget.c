/* The bytes images in flight may hold together: a mutex, a count and a condition to wait on. */
#include "memory_budget.h"

#include "common/base/error.h"

int memory_budget_init(struct memory_budget *budget, uint64_t limit)
{
    budget->limit = limit;
    budget->taken = 0;
    if (pthread_mutex_init(&budget->lock, NULL) != 0)
        return error_set(EXIT_OTHER, "cannot start: no lock for the memory budget");
    if (pthread_cond_init(&budget->given, NULL) != 0) {
        pthread_mutex_destroy(&budget->lock);
        return error_set(EXIT_OTHER, "cannot start: no condition for the memory budget");
    }
    return EXIT_OK;
}

void memory_budget_destroy(struct memory_budget *budget)
{
    pthread_cond_destroy(&budget->given);
    pthread_mutex_destroy(&budget->lock);
}

static bool fits_locked(const struct memory_budget *budget, uint64_t bytes)
{
    return budget->taken == 0 || (bytes <= budget->limit && budget->taken <= budget->limit - bytes);
}

bool memory_budget_fits(struct memory_budget *budget, uint64_t bytes)
{
    pthread_mutex_lock(&budget->lock);
    bool fits = fits_locked(budget, bytes);
    pthread_mutex_unlock(&budget->lock);
    return fits;
}

void memory_budget_take(struct memory_budget *budget, uint64_t bytes)
{
    pthread_mutex_lock(&budget->lock);
    while (!fits_locked(budget, bytes))
        pthread_cond_wait(&budget->given, &budget->lock);
    budget->taken += bytes;
    pthread_mutex_unlock(&budget->lock);
}

void memory_budget_charge(struct memory_budget *budget, uint64_t bytes)
{
    pthread_mutex_lock(&budget->lock);
    budget->taken += bytes;
    pthread_mutex_unlock(&budget->lock);
}

void memory_budget_give(struct memory_budget *budget, uint64_t bytes)
{
    pthread_mutex_lock(&budget->lock);
    budget->taken -= bytes <= budget->taken ? bytes : budget->taken;
    pthread_cond_broadcast(&budget->given);
    pthread_mutex_unlock(&budget->lock);
}

uint64_t memory_budget_taken(struct memory_budget *budget)
{
    pthread_mutex_lock(&budget->lock);
    uint64_t taken = budget->taken;
    pthread_mutex_unlock(&budget->lock);
    return taken;
}
