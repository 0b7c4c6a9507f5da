/* jschema.c -- the validator of jschema.h: walks the instance and the schema together,
 * the first error wins (its path, e.g. /spec/template/spec/containers/0/image, and why). */
#include <stdio.h>
#include <string.h>

#include "jschema.h"

typedef struct ctx {
    json_t *root;
    char   *err;
    size_t  len;
} ctx_t;

static int check(ctx_t *c, json_t *s, json_t *v, const char *path);

static int fail(ctx_t *c, const char *path, const char *why, const char *what)
{
    snprintf(c->err, c->len, "%s: %s%s", path[0] ? path : "/", why, what ? what : "");
    return -1;
}

static int is_type(json_t *v, const char *t)
{
    if (!strcmp(t, "object")) return json_is_object(v);
    if (!strcmp(t, "array")) return json_is_array(v);
    if (!strcmp(t, "string")) return json_is_string(v);
    if (!strcmp(t, "boolean")) return json_is_boolean(v);
    if (!strcmp(t, "null")) return json_is_null(v);
    if (!strcmp(t, "number")) return json_is_number(v);
    if (!strcmp(t, "integer"))
        return json_is_integer(v) ||
               (json_is_real(v) && json_real_value(v) == (double)(long long)json_real_value(v));
    return 0;
}

static int check_type(ctx_t *c, json_t *t, json_t *v, const char *path)
{
    if (json_is_string(t))
        return is_type(v, json_string_value(t)) ? 0 : fail(c, path, "not of type ", json_string_value(t));
    size_t i;
    json_t *e;
    json_array_foreach(t, i, e) {
        if (json_is_string(e) && is_type(v, json_string_value(e)))
            return 0;
    }
    return fail(c, path, "not of any of the types allowed", NULL);
}

/* "#/a/b" within the root */
static json_t *resolve(ctx_t *c, const char *ref)
{
    if (strncmp(ref, "#", 1) != 0)
        return NULL;
    json_t *at = c->root;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", ref + 1);
    for (char *tok = strtok(buf, "/"); tok && at; tok = strtok(NULL, "/"))
        at = json_object_get(at, tok);
    return at;
}

static int check_object(ctx_t *c, json_t *s, json_t *v, const char *path)
{
    json_t *props = json_object_get(s, "properties"), *addl = json_object_get(s, "additionalProperties");
    json_t *req = json_object_get(s, "required"), *e;
    char sub[1024];
    size_t i;
    json_array_foreach(req, i, e) {
        if (json_is_string(e) && !json_object_get(v, json_string_value(e)))
            return fail(c, path, "missing required property ", json_string_value(e));
    }
    const char *k;
    json_object_foreach(v, k, e) {
        json_t *ps = json_object_get(props, k);
        snprintf(sub, sizeof sub, "%s/%s", path, k);
        if (ps) {
            if (check(c, ps, e, sub) < 0)
                return -1;
        } else if (json_is_false(addl)) {
            return fail(c, path, "property not allowed: ", k);
        } else if (json_is_object(addl) && check(c, addl, e, sub) < 0) {
            return -1;
        }
    }
    return 0;
}

static int count_valid(ctx_t *c, json_t *list, json_t *v, const char *path)
{
    char scratch[256];
    ctx_t sub = { c->root, scratch, sizeof scratch };
    size_t i;
    json_t *e;
    int n = 0;
    json_array_foreach(list, i, e)
        n += check(&sub, e, v, path) == 0;
    return n;
}

static int check(ctx_t *c, json_t *s, json_t *v, const char *path)
{
    if (json_is_true(s) || !json_is_object(s))
        return 0;
    json_t *ref = json_object_get(s, "$ref");
    if (json_is_string(ref)) {
        json_t *target = resolve(c, json_string_value(ref));
        return target ? check(c, target, v, path) : fail(c, path, "unresolved $ref ", json_string_value(ref));
    }
    json_t *t = json_object_get(s, "type"), *en = json_object_get(s, "enum"), *e;
    if (t && check_type(c, t, v, path) < 0)
        return -1;
    if (json_is_array(en)) {
        size_t i;
        int ok = 0;
        json_array_foreach(en, i, e)
            ok |= json_equal(e, v);
        if (!ok)
            return fail(c, path, "not one of the values allowed", NULL);
    }
    if (json_is_object(v) && check_object(c, s, v, path) < 0)
        return -1;
    json_t *items = json_object_get(s, "items");
    if (json_is_array(v) && json_is_object(items)) {
        size_t i;
        char sub[1024];
        json_array_foreach(v, i, e) {
            snprintf(sub, sizeof sub, "%s/%zu", path, i);
            if (check(c, items, e, sub) < 0)
                return -1;
        }
    }
    json_t *one = json_object_get(s, "oneOf"), *any = json_object_get(s, "anyOf");
    json_t *all = json_object_get(s, "allOf");
    if (json_is_array(one) && count_valid(c, one, v, path) != 1)
        return fail(c, path, "not exactly one of oneOf", NULL);
    if (json_is_array(any) && count_valid(c, any, v, path) < 1)
        return fail(c, path, "none of anyOf", NULL);
    if (json_is_array(all) && count_valid(c, all, v, path) != (int)json_array_size(all))
        return fail(c, path, "not all of allOf", NULL);
    return 0;
}

int jschema_validate(json_t *schema, json_t *inst, char *err, size_t len)
{
    ctx_t c = { schema, err, len };
    if (len)
        err[0] = '\0';
    return check(&c, schema, inst, "");
}
