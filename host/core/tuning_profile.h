/* Stored tuning profiles: the tuner's choices for one device, kept as a text file in the cache
 * directory and keyed like the program cache (device, driver, platform and clgather versions). A
 * profile that is missing, damaged or made for another device is ignored without error. */
#ifndef CLG_TUNING_PROFILE_H
#define CLG_TUNING_PROFILE_H

#include "core/tuning.h"

/* The path of the profile for a device key ("" and 0 when no cache directory is known). */
int clg_tuning_profile_path(const char *device_key, char *path, size_t size);

/* Apply a stored profile to *tuning: 1 if the file exists, was written for this device key and
 * parses, else 0 with *tuning untouched. Never sets the error message. */
int clg_tuning_profile_load(const char *path, const char *device_key, clg_tuning *tuning);

/* Apply a profile file named by the user (CLGATHER_TUNING=FILE): its `name = value` lines, whatever
 * device it was made for. 1 if it parses, else 0 with *tuning untouched. */
int clg_tuning_profile_load_any(const char *path, clg_tuning *tuning);

/* Write a profile for the device key, atomically (a temporary file, then a rename). */
clg_status clg_tuning_profile_store(const char *path, const char *device_key, const clg_tuning *tuning,
                                    const char *comment);

#endif
