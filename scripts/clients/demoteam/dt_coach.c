/* dt_coach.c -- the demo team's online coach: connects to the online-coach port once
 * the players are on, reads the heterogeneous player types the server sends after the
 * init, and before the kick-off gives each role a type (docs/protocol/coach.md §7:
 * unlimited and uncounted before the first kick-off; at most pt_max players of one type,
 * the default type included unless allow_mult_default_type). The goalie gets the longest
 * catch reach, the forwards the fastest, then the midfield and the defence. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "dt.h"

/* the speed a type really reaches: dash acceleration against its decay, capped */
static double real_speed(const dt_ptype_t *t)
{
    double v = t->decay < 1.0 ? 100.0 * t->dash_rate * t->effort_max / (1.0 - t->decay) : 0.0;
    return fmin(v, t->speed_max);
}

/* how well a type fits a line: 0 goalie, 1 defence, 2 midfield, 3 attack */
static double fitness(const dt_ptype_t *t, int line)
{
    double speed = real_speed(t), stamina = t->stamina_inc_max + 0.1 * t->extra_stamina;
    switch (line) {
    case 0: return 10.0 * t->catch_stretch + speed;
    case 1: return 4.0 * speed + 0.02 * stamina + 2.0 * t->kick_margin;
    case 2: return 2.0 * speed + 0.06 * stamina + 1.0 * t->kick_margin;
    default: return 5.0 * speed + 2.0 * t->kick_margin - 2.0 * t->kick_rand;
    }
}

void dt_coach_choose(const dt_params_t *p, int out[DT_PLAYERS + 1])
{
    /* the order in which roles choose: goalie, forwards, midfield, defence */
    static const int order[DT_PLAYERS] = { 1, 10, 9, 11, 7, 6, 8, 3, 4, 2, 5 };
    int used[DT_TYPES_MAX] = { 0 };
    int limit = p->pt_max > 0 ? p->pt_max : 1;
    for (int k = 0; k < DT_PLAYERS; k++) {
        int u = order[k], line = u == 1 ? 0 : u <= 5 ? 1 : u <= 8 ? 2 : 3;
        int best = -1;
        for (int t = 0; t < p->ntypes && t < DT_TYPES_MAX; t++) {
            if (used[t] >= limit)
                continue;
            if (best < 0 || fitness(&p->type[t], line) > fitness(&p->type[best], line))
                best = t;
        }
        out[u] = best; /* -1: no type left, the player keeps its own */
        if (best >= 0)
            used[best]++;
    }
}

int dt_coach_connect(dt_coach_t *co, const struct sockaddr_in *port, const char *team)
{
    char msg[128], buf[8192];
    memset(co, 0, sizeof *co);
    co->team = team;
    dt_params_defaults(&co->prm);
    co->fd = dt_net_socket();
    if (co->fd < 0)
        return -1;
    snprintf(msg, sizeof msg, "(init %s (version 19))", team);
    for (int attempt = 0; attempt < 3; attempt++) {
        dt_net_send(co->fd, port, msg);
        int n = dt_net_recv(co->fd, buf, sizeof buf, 2000, &co->srv);
        if (n > 0 && strncmp(buf, "(init ", 6) == 0 && strstr(buf, " ok)")) {
            co->connected = 1;
            return 0;
        }
        if (n > 0) {
            fprintf(stderr, "rcss-demoteam %s: coach: %s\n", team, buf);
            break;
        }
    }
    fprintf(stderr, "rcss-demoteam %s: the online coach could not connect\n", team);
    return -1;
}

static void coach_assign(dt_coach_t *co)
{
    char msg[64];
    dt_coach_choose(&co->prm, co->type_of);
    for (int u = 1; u <= DT_PLAYERS; u++) {
        if (co->type_of[u] < 0)
            continue;
        snprintf(msg, sizeof msg, "(change_player_type %d %d)", u, co->type_of[u]);
        dt_net_send(co->fd, &co->srv, msg);
        co->assigned++;
    }
}

void dt_coach_on_message(dt_coach_t *co, const char *msg, size_t len)
{
    char text[64];
    int t;
    if (strncmp(msg, "(error", 6) == 0 || strncmp(msg, "(warning", 8) == 0) {
        if (msg[1] == 'e')
            co->errors++;
        else
            co->warnings++;
        fprintf(stderr, "rcss-demoteam %s: coach got %s\n", co->team, msg);
    } else if (strncmp(msg, "(ok change_player_type", 22) == 0) {
        co->acked++;
    } else if (strncmp(msg, "(player_type ", 13) == 0) {
        if (dt_parse_params(msg, len, &co->prm) == 0)
            co->ntypes_seen++;
        if (co->ntypes_seen == co->prm.ntypes && co->assigned == 0)
            coach_assign(co);
    } else if (strncmp(msg, "(server_param", 13) == 0 || strncmp(msg, "(player_param", 13) == 0) {
        dt_parse_params(msg, len, &co->prm);
    } else if (strncmp(msg, "(think)", 7) == 0) {
        dt_net_send(co->fd, &co->srv, "(done)");
    } else if (dt_parse_referee(msg, len, &t, text, sizeof text) == 0) {
        if (strcmp(text, "time_over") == 0)
            co->time_over = 1;
    }
}

int dt_coach_ready(const dt_coach_t *co)
{
    return !co->connected || (co->assigned > 0 && co->acked + co->errors + co->warnings >= co->assigned);
}
