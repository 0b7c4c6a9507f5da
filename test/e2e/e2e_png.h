/* e2e_png.h -- read a screenshot in end-to-end tests: a small PNG decoder for what
 * headless Chromium writes (8-bit RGB or RGBA, not interlaced; zlib inflates the image
 * data), giving the pixels as RGB triples. */
#ifndef RCSS_E2E_PNG_H
#define RCSS_E2E_PNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct e2e_png {
    int      w, h;
    uint8_t *rgb;          /* w * h * 3 bytes, row by row; free with e2e_png_free */
} e2e_png_t;

/* Decode the file at path. 0, or -1 with a reason in err (a missing file, a truncated
 * or corrupt one, a kind of PNG this reader does not handle). */
int  e2e_png_read(e2e_png_t *img, const char *path, char *err, size_t errlen);
void e2e_png_free(e2e_png_t *img);

/* The pixel at (x, y) as 0xRRGGBB; -1 outside the image. */
long e2e_png_at(const e2e_png_t *img, int x, int y);

#endif
