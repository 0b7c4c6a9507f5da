/* ws_frame.h -- WebSocket frames (RFC 6455 §5) for a client that watches a stream
 * (scripts/bench/rcss-viewload.c against the broadcast tier): the opening handshake's
 * request, the server's frames read in pieces as they arrive (unmasked, as a server
 * sends them; a masked one is a protocol error), and the client's own frames, masked
 * (pong, close). Of a data message only its last WS_READ_TAIL bytes are kept (a live
 * frame's stamp is there, common/frame_stamp.h) and its first WS_READ_HEAD (where nchan's
 * ws+meta.nchan subprotocol puts the message id: ws_meta_id), of a control frame its
 * whole payload (at most 125 bytes). The server's answer to the handshake is checked
 * with ws_accept (SHA-1, RFC 6455 §4.2.2). Pure. */
#ifndef RCSS_WS_FRAME_H
#define RCSS_WS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define WS_READ_TAIL 128
#define WS_READ_HEAD 96
#define WS_META_PROTOCOL "ws+meta.nchan" /* messages start "id: ID\n[content-type: T\n]\n" */

enum { WS_OP_CONT = 0, WS_OP_TEXT = 1, WS_OP_BINARY = 2, WS_OP_CLOSE = 8, WS_OP_PING = 9,
       WS_OP_PONG = 10 };

typedef struct ws_read {
    uint8_t  hdr[14];         /* the frame header being read */
    size_t   hlen;
    uint64_t left;            /* payload bytes of the current frame still to come */
    int      in_frame;        /* reading a payload */
    int      opcode;          /* of the current frame */
    int      fin;
    int      msg_op;          /* the data message being read (TEXT, BINARY), 0 none */
    char     tail[WS_READ_TAIL]; /* the end of its payload so far */
    size_t   tlen;
    char     head[WS_READ_HEAD]; /* the start of its payload (valid in the callback) */
    size_t   hdlen;
    uint8_t  ctl[125];        /* a control frame's payload */
    size_t   clen;
} ws_read_t;

/* a whole message: opcode TEXT/BINARY with the last len bytes of its payload (all of it
 * if shorter than WS_READ_TAIL), or a control frame (CLOSE, PING, PONG) with its payload */
typedef void (*ws_read_fn)(void *arg, int opcode, const char *data, size_t len);

/* Feed n bytes from the server. 0, or -1 on a protocol error (a masked frame, a control
 * frame over 125 bytes or fragmented, a continuation without a message, a length with
 * the top bit set). */
int ws_read_feed(ws_read_t *r, const uint8_t *buf, size_t n, ws_read_fn fn, void *arg);

/* A client frame (FIN set, masked with mask): its length, or 0 if it does not fit. */
size_t ws_frame_client(uint8_t *out, size_t cap, int opcode, const void *payload, size_t len,
                       uint32_t mask);

/* The opening handshake's request for host (with :port) and path; key is the base64
 * of 16 bytes (ws_key); protocol, unless NULL, asked for as Sec-WebSocket-Protocol. Its
 * length, or 0 if it does not fit. */
size_t ws_handshake(char *out, size_t cap, const char *host, const char *path, const char *key,
                    const char *protocol);
/* The request target of a returning ws+meta.nchan client: path, then (unless last_id is
 * NULL or empty) "?last_event_id=" ("&..." if path has a query) with last_id
 * percent-encoded (RFC 3986: all but unreserved characters). Its length, or 0 if it
 * does not fit. */
size_t ws_resume_target(char *out, size_t cap, const char *path, const char *last_id);
/* The Sec-WebSocket-Accept a server must answer key with: base64 of the SHA-1 of key and
 * RFC 6455's GUID (28 characters and a NUL). */
void   ws_accept(const char *key, char out[29]);
/* The message id at the start of the message just read (r->head) under the
 * ws+meta.nchan subprotocol, into id (NUL-terminated): its length, or -1 if the message
 * does not start with an "id: " line that fits. */
int    ws_meta_id(const ws_read_t *r, char *id, size_t cap);
/* The SHA-1 of n bytes (FIPS 180-4), for ws_accept. */
void   ws_sha1(const void *data, size_t n, uint8_t out[20]);
/* A Sec-WebSocket-Key from 16 bytes (base64, 24 characters and a NUL). */
void   ws_key(const uint8_t nonce[16], char out[25]);

#endif
