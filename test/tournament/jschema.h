/* jschema.h -- a small JSON Schema validator on jansson for the tests: the keywords the
 * Kubernetes schemas use (type, also as a list, and integer vs number; enum; properties;
 * additionalProperties, false or a schema; required; items; oneOf, anyOf, allOf; $ref to
 * "#/..." within the same file). Other keywords (format, descriptions, x-kubernetes-*)
 * are ignored, as a validator may. */
#ifndef RCSS_TEST_JSCHEMA_H
#define RCSS_TEST_JSCHEMA_H

#include <stddef.h>
#include <jansson.h>

/* 0 if inst is valid under schema; -1 with the first error (a path and why) in err. */
int jschema_validate(json_t *schema, json_t *inst, char *err, size_t len);

#endif
