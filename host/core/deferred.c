#include "core/deferred.h"

#include "core/operation.h"
#include "core/status.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clg_deferred_entry {
    const clg_operation *op;
    void *plan;
    clg_failure_record record; /* filled by the call's non-blocking read before `done` completes */
    cl_event done;
    uint64_t sequence; /* enqueue order */
    struct clg_deferred_entry *next;
};

struct clg_deferred {
    pthread_mutex_t lock;
    clg_deferred_entry *entries; /* oldest first */
    uint64_t next_sequence;
};

clg_status clg_deferred_create(clg_deferred **out)
{
    clg_deferred *d = calloc(1, sizeof *d);
    if (!d) return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate the deferred-status store");
    if (pthread_mutex_init(&d->lock, NULL) != 0) {
        free(d);
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot create the deferred-status mutex");
    }
    *out = d;
    return CLG_SUCCESS;
}

static void free_entry(clg_deferred_entry *e)
{
    if (e->done) clReleaseEvent(e->done);
    free(e->plan);
    free(e);
}

void clg_deferred_destroy(clg_deferred *d)
{
    if (!d) return;
    for (clg_deferred_entry *e = d->entries; e;) {
        clg_deferred_entry *next = e->next;
        free_entry(e);
        e = next;
    }
    pthread_mutex_destroy(&d->lock);
    free(d);
}

clg_status clg_deferred_begin(const clg_operation *op, const void *plan, clg_deferred_entry **entry,
                              clg_failure_record **record)
{
    clg_deferred_entry *e = calloc(1, sizeof *e);
    void *copy = malloc(op->plan_size);
    if (!e || !copy) {
        free(e);
        free(copy);
        return clg_fail(CLG_ERR_OUT_OF_HOST_MEMORY, "cannot allocate a deferred-status entry");
    }
    memcpy(copy, plan, op->plan_size);
    e->op = op;
    e->plan = copy;
    e->record.flag = CLG_FLAG_NONE_FAILED;
    *entry = e;
    *record = &e->record;
    return CLG_SUCCESS;
}

void clg_deferred_abandon(clg_deferred_entry *entry)
{
    if (entry) free_entry(entry);
}

static cl_int execution_status(cl_event event)
{
    cl_int status = CL_QUEUED;
    if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) != CL_SUCCESS)
        return CL_QUEUED;
    return status;
}

/* Called with the lock held: unlink and free the entries of calls that have completed and succeeded. */
static void sweep(clg_deferred *d)
{
    for (clg_deferred_entry **link = &d->entries; *link;) {
        clg_deferred_entry *e = *link;
        if (execution_status(e->done) == CL_COMPLETE && e->record.flag == CLG_FLAG_NONE_FAILED) {
            *link = e->next;
            free_entry(e);
        } else {
            link = &e->next;
        }
    }
}

void clg_deferred_commit(clg_deferred *d, clg_deferred_entry *entry, cl_event done)
{
    clRetainEvent(done);
    entry->done = done;
    pthread_mutex_lock(&d->lock);
    sweep(d);
    entry->sequence = d->next_sequence++;
    clg_deferred_entry **link = &d->entries;
    while (*link) link = &(*link)->next;
    *link = entry;
    pthread_mutex_unlock(&d->lock);
}

size_t clg_deferred_count(clg_deferred *d)
{
    pthread_mutex_lock(&d->lock);
    size_t n = 0;
    for (const clg_deferred_entry *e = d->entries; e; e = e->next) ++n;
    pthread_mutex_unlock(&d->lock);
    return n;
}

/* Wait for an entry's call and give its status; a failure is named by the operation's report. */
static clg_status settle(clg_deferred_entry *e)
{
    cl_int err = clWaitForEvents(1, &e->done);
    if (err == CL_SUCCESS) {
        const cl_int status = execution_status(e->done);
        if (status < 0) return clg_fail_cl(status, "a deferred call's commands");
    } else {
        return clg_fail_cl(err, "clWaitForEvents (a deferred call)");
    }
    if (e->record.flag == CLG_FLAG_NONE_FAILED) return CLG_SUCCESS;
    return e->op->report(e->plan, &e->record);
}

/* Put entries back in enqueue order (called with the lock held). */
static void reinsert(clg_deferred *d, clg_deferred_entry *e)
{
    clg_deferred_entry **link = &d->entries;
    while (*link && (*link)->sequence < e->sequence) link = &(*link)->next;
    e->next = *link;
    *link = e;
}

clg_status clg_deferred_query(clg_deferred *d, cl_event event)
{
    pthread_mutex_lock(&d->lock);
    clg_deferred_entry *taken = NULL;
    if (event) {
        for (clg_deferred_entry **link = &d->entries; *link; link = &(*link)->next)
            if ((*link)->done == event) {
                taken = *link;
                *link = taken->next;
                taken->next = NULL;
                break;
            }
    } else {
        taken = d->entries; /* all of them, oldest first */
        d->entries = NULL;
    }
    pthread_mutex_unlock(&d->lock);

    if (event && !taken) { /* not a deferred call of this context, or one that has been settled */
        cl_int err = clWaitForEvents(1, &event);
        return err == CL_SUCCESS ? CLG_SUCCESS : clg_fail_cl(err, "clWaitForEvents");
    }
    clg_status first = CLG_SUCCESS;
    char message[1024] = "";
    clg_deferred_entry *unreported = NULL, **tail = &unreported;
    for (clg_deferred_entry *e = taken; e;) {
        clg_deferred_entry *next = e->next;
        clg_status st = first == CLG_SUCCESS ? settle(e) : CLG_SUCCESS;
        if (first == CLG_SUCCESS && st != CLG_SUCCESS) {
            first = st; /* reported now: its entry goes */
            snprintf(message, sizeof message, "%s", clg_last_error_message());
            free_entry(e);
        } else if (first != CLG_SUCCESS &&
                   (execution_status(e->done) != CL_COMPLETE || e->record.flag != CLG_FLAG_NONE_FAILED)) {
            e->next = NULL; /* after the failure reported now: kept for a later query */
            *tail = e;
            tail = &e->next;
        } else {
            free_entry(e);
        }
        e = next;
    }
    if (unreported) {
        pthread_mutex_lock(&d->lock);
        for (clg_deferred_entry *e = unreported; e;) {
            clg_deferred_entry *next = e->next;
            reinsert(d, e);
            e = next;
        }
        pthread_mutex_unlock(&d->lock);
    }
    if (first != CLG_SUCCESS) clg_fail(first, "%s", message);
    return first;
}
