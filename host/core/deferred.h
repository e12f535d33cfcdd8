/* The deferred error policy's bookkeeping: for every enqueue call made under
 * CLG_CONTEXT_DEFER_ERRORS whose inputs are checked on the device, the context keeps an entry (the
 * call's out-event, a copy of its plan, and the host copy of its failure record, which a non-blocking
 * read fills before the event completes) until the call is known to have succeeded, or until its
 * failure has been reported by clg_deferred_status. No thread and no callback: entries are examined
 * when the context is next used. */
#ifndef CLG_DEFERRED_H
#define CLG_DEFERRED_H

#include "clgather.h"

typedef struct clg_deferred clg_deferred;
struct clg_operation;
struct clg_failure_record;
typedef struct clg_deferred_entry clg_deferred_entry;

clg_status clg_deferred_create(clg_deferred **out);
/* Drops every entry (their failures unreported); the context's work must have completed. */
void clg_deferred_destroy(clg_deferred *deferred);

/* A new entry for a call of op with this plan (copied), not yet registered; *record is where the
 * call's non-blocking read of its failure record must land. */
clg_status clg_deferred_begin(const struct clg_operation *op, const void *plan, clg_deferred_entry **entry,
                              struct clg_failure_record **record);
/* Register the entry under done, the call's last event (retained here); frees the entries of calls
 * that have completed and succeeded. */
void clg_deferred_commit(clg_deferred *deferred, clg_deferred_entry *entry, cl_event done);
/* Free an entry that was begun but will not be registered (the call failed while enqueueing). */
void clg_deferred_abandon(clg_deferred_entry *entry);

/* Entries held: calls not yet known to have succeeded, and failures not yet reported. */
size_t clg_deferred_count(clg_deferred *deferred);

/* See clg_deferred_status in clgather.h. */
clg_status clg_deferred_query(clg_deferred *deferred, cl_event event);

#endif
