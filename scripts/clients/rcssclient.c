/* rcssclient.c -- the sample client (seeds 000/001 6.2.1): a pipe between a terminal and
 * the server. Each line read from stdin is sent as one NUL-terminated datagram; each
 * datagram received is written to stdout as one line. After the init the server answers
 * from a port of its own for this client: like the manual's sample client, rcssclient
 * sends everything after that to the port the server last answered from. Works on the
 * player port (6000), the trainer port (--trainer, 6001) and the online coach port
 * (--coach, 6002). When the server acknowledges (compression N) the traffic is
 * zlib-framed both ways from then on, as the reference does (one zlib stream per
 * datagram, sync-flushed). With --synch every (think) is answered with (done).
 *
 * usage: rcssclient [HOST [PORT]] [--host H] [--port P] [--trainer|--coach]
 *                   [--team NAME] [--version V] [--goalie] [--synch] [--verbose]
 *                   [--linger MS] */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define CLIENT_BUF   65536
#define CLIENT_LINE  8192

enum { KIND_PLAYER, KIND_TRAINER, KIND_COACH };

typedef struct client_opts {
    const char *host;
    int         port;      /* 0: the default of the kind */
    int         kind;
    const char *team;      /* with version: send the init ourselves */
    double      version;   /* < 0: no automatic init */
    int         goalie;
    int         synch;     /* answer (think) with (done) */
    int         verbose;   /* "send PORT : ..." / "recv PORT : ..." as in the manual */
    int         linger_ms; /* keep receiving this long after stdin closes */
} client_opts_t;

typedef struct client {
    int    fd;
    struct sockaddr_storage srv; /* where datagrams go: the init port, then the own port */
    socklen_t srv_len;
    int    init_port;            /* the port first addressed (6000, 6001 or 6002) */
    int    heard;                /* a datagram came from the server */
    int    comp_level;           /* -1 plain, 0..9 zlib-framed (after (ok compression N)) */
    int    verbose;
    int    synch;
    char   line[CLIENT_LINE];    /* partial stdin line */
    size_t line_len;
} client_t;

static volatile sig_atomic_t stop_flag;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static void on_signal(int sig) { (void)sig; stop_flag = 1; }

static int port_of(const struct sockaddr_storage *a)
{
    if (a->ss_family == AF_INET6)
        return ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
    return ntohs(((const struct sockaddr_in *)a)->sin_port);
}

static int srv_port(const client_t *c) { return port_of(&c->srv); }

/* Compress msg (with its NUL) into out as one sync-flushed zlib stream; length or -1. */
static int zframe(int level, const char *msg, size_t len, unsigned char *out, size_t cap)
{
    z_stream z = { 0 };
    if (deflateInit(&z, level) != Z_OK)
        return -1;
    z.next_in = (Bytef *)msg;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_SYNC_FLUSH);
    int n = (int)(cap - z.avail_out);
    deflateEnd(&z);
    return rc == Z_OK && z.avail_in == 0 ? n : -1;
}

/* Inflate one datagram into out (NUL-terminated); length or -1. */
static int zunframe(const unsigned char *in, size_t len, char *out, size_t cap)
{
    z_stream z = { 0 };
    if (inflateInit(&z) != Z_OK)
        return -1;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)(cap - 1);
    int rc = inflate(&z, Z_SYNC_FLUSH);
    size_t n = cap - 1 - z.avail_out;
    inflateEnd(&z);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        return -1;
    out[n] = '\0';
    return (int)n;
}

static void client_send(client_t *c, const char *msg)
{
    size_t len = strlen(msg) + 1; /* the NUL goes with it, as every client does */
    unsigned char z[CLIENT_BUF];
    const void *data = msg;
    if (c->comp_level >= 0) {
        int n = zframe(c->comp_level, msg, len, z, sizeof z);
        if (n < 0) {
            fprintf(stderr, "rcssclient: cannot compress: %s\n", msg);
            return;
        }
        data = z;
        len = (size_t)n;
    }
    if (sendto(c->fd, data, len, 0, (struct sockaddr *)&c->srv, c->srv_len) < 0)
        fprintf(stderr, "rcssclient: sendto port %d: %s\n", srv_port(c), strerror(errno));
    else if (c->verbose)
        fprintf(stdout, "send %d : %s\n", srv_port(c), msg);
}

/* the same host as the server: a datagram from there names the port to talk to */
static int same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
    if (a->ss_family != b->ss_family)
        return 0;
    if (a->ss_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)b)->sin6_addr, 16) == 0;
    return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
           ((const struct sockaddr_in *)b)->sin_addr.s_addr;
}

static void on_message(client_t *c, const char *msg)
{
    int level;
    if (sscanf(msg, "(ok compression %d)", &level) == 1 && level >= 0 && level <= 9)
        c->comp_level = level;
    if (c->synch && strcmp(msg, "(think)") == 0)
        client_send(c, "(done)");
}

static void client_receive(client_t *c)
{
    static unsigned char raw[CLIENT_BUF];
    static char text[4 * CLIENT_BUF];
    struct sockaddr_storage from;
    socklen_t fl = sizeof from;
    ssize_t n = recvfrom(c->fd, raw, sizeof raw - 1, 0, (struct sockaddr *)&from, &fl);
    if (n <= 0)
        return;
    const char *msg = (const char *)raw;
    raw[n] = '\0';
    /* plain text starts with '('; anything else is a zlib frame */
    if (raw[0] != '(' && zunframe(raw, (size_t)n, text, sizeof text) >= 0)
        msg = text;
    /* follow the server's port (manual 6.2.1); an answer from the init port itself (an
     * error to a stray datagram) does not take us back there */
    if (same_host(&from, &c->srv) && (!c->heard || port_of(&from) != c->init_port)) {
        memcpy(&c->srv, &from, fl);
        c->srv_len = fl;
    }
    c->heard = 1;
    if (c->verbose)
        fprintf(stdout, "recv %d : %s\n", srv_port(c), msg);
    else
        fprintf(stdout, "%s\n", msg);
    fflush(stdout);
    on_message(c, msg);
}

/* read what stdin has; send each complete line. 0 on EOF. */
static int client_stdin(client_t *c)
{
    ssize_t n = read(0, c->line + c->line_len, sizeof c->line - 1 - c->line_len);
    if (n <= 0)
        return n < 0 && errno == EINTR;
    c->line_len += (size_t)n;
    for (;;) {
        char *nl = memchr(c->line, '\n', c->line_len);
        if (!nl && c->line_len < sizeof c->line - 1)
            break;
        size_t l = nl ? (size_t)(nl - c->line) : c->line_len;
        c->line[l] = '\0';
        if (l > 0 && c->line[l - 1] == '\r')
            c->line[l - 1] = '\0';
        if (c->line[0])
            client_send(c, c->line);
        size_t used = nl ? l + 1 : l;
        memmove(c->line, c->line + used, c->line_len - used);
        c->line_len -= used;
    }
    return 1;
}

static int client_open(client_t *c, const client_opts_t *o)
{
    static const int defport[] = { 6000, 6001, 6002 };
    char port[16];
    snprintf(port, sizeof port, "%d", o->port > 0 ? o->port : defport[o->kind]);
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_DGRAM }, *res;
    int rc = getaddrinfo(o->host, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "rcssclient: %s: %s\n", o->host, gai_strerror(rc));
        return -1;
    }
    c->fd = socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    memcpy(&c->srv, res->ai_addr, res->ai_addrlen);
    c->srv_len = res->ai_addrlen;
    c->init_port = port_of(&c->srv);
    freeaddrinfo(res);
    if (c->fd < 0) {
        fprintf(stderr, "rcssclient: socket: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

/* the init of --team/--version; 1 if one was sent */
static int send_init(client_t *c, const client_opts_t *o)
{
    char msg[256];
    if (o->version < 0 && !o->team)
        return 0;
    double v = o->version < 0 ? 19 : o->version;
    const char *team = o->team ? o->team : "Sample";
    if (o->kind == KIND_TRAINER)
        snprintf(msg, sizeof msg, "(init (version %g))", v);
    else
        snprintf(msg, sizeof msg, "(init %s (version %g)%s)", team, v,
                 o->goalie && o->kind == KIND_PLAYER ? " (goalie)" : "");
    client_send(c, msg);
    return 1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: rcssclient [HOST [PORT]] [options]\n"
               "  --host H       server host (default localhost)\n"
               "  --port P       server port (default 6000, --trainer 6001, --coach 6002)\n"
               "  --trainer      talk to the trainer port\n"
               "  --coach        talk to the online coach port\n"
               "  --team NAME    send the init for this team (players, online coach)\n"
               "  --version V    send the init with protocol version V (default 19)\n"
               "  --goalie       the init asks to be the goalie\n"
               "  --synch        answer every (think) with (done) (synch mode)\n"
               "  --verbose      print \"send PORT : ...\" and \"recv PORT : ...\"\n"
               "  --linger MS    keep printing MS ms after stdin closes (default 500)\n"
               "Lines typed are sent as commands; every message received is printed.\n");
}

static int parse_args(int argc, char **argv, client_opts_t *o)
{
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = v && (!strcmp(a, "--host") || !strcmp(a, "--port") || !strcmp(a, "--team")
                          || !strcmp(a, "--version") || !strcmp(a, "--linger"));
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (takes) {
            i++;
            if (!strcmp(a, "--host")) o->host = v;
            else if (!strcmp(a, "--port")) o->port = atoi(v);
            else if (!strcmp(a, "--team")) o->team = v;
            else if (!strcmp(a, "--version")) o->version = atof(v);
            else o->linger_ms = atoi(v);
        } else if (!strcmp(a, "--trainer")) o->kind = KIND_TRAINER;
        else if (!strcmp(a, "--coach")) o->kind = KIND_COACH;
        else if (!strcmp(a, "--goalie")) o->goalie = 1;
        else if (!strcmp(a, "--synch")) o->synch = 1;
        else if (!strcmp(a, "--verbose")) o->verbose = 1;
        else if (a[0] != '-' && pos == 0 && ++pos) o->host = a;
        else if (a[0] != '-' && pos == 1 && ++pos) o->port = atoi(a);
        else {
            fprintf(stderr, "rcssclient: unknown argument %s\n", a);
            return -1;
        }
    }
    if (o->port < 0 || o->port > 65535 || (o->version >= 0 && o->version < 1)) {
        fprintf(stderr, "rcssclient: bad port or version\n");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    client_opts_t o = { .host = "localhost", .version = -1, .linger_ms = 500 };
    if (parse_args(argc, argv, &o) < 0) {
        usage(stderr);
        return 1;
    }
    client_t c = { .fd = -1, .comp_level = -1, .verbose = o.verbose, .synch = o.synch };
    if (client_open(&c, &o) < 0)
        return 1;
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* after an init of our own, typed lines wait for its answer (at most 3 s), so that
     * `echo "(move -10 0)" | rcssclient --team A` reaches the player's own port */
    double hold = send_init(&c, &o) ? now_ms() + 3000 : 0;

    struct pollfd p[2] = { { .fd = c.fd, .events = POLLIN }, { .fd = 0, .events = POLLIN } };
    int have_stdin = 1;
    double end = 0; /* when stdin is closed: the time to leave */
    while (!stop_flag) {
        int held = have_stdin && !c.heard && now_ms() < hold;
        int wait = have_stdin ? (held ? (int)(hold - now_ms()) + 1 : -1) : (int)(end - now_ms());
        if (!have_stdin && wait <= 0)
            break;
        int r = poll(p, have_stdin && !held ? 2 : 1, wait);
        if (r < 0 && errno != EINTR)
            break;
        if (r > 0 && (p[0].revents & POLLIN))
            client_receive(&c);
        if (r > 0 && have_stdin && !held && (p[1].revents & (POLLIN | POLLHUP))) {
            have_stdin = client_stdin(&c);
            end = now_ms() + o.linger_ms;
        }
    }
    close(c.fd);
    return 0;
}
