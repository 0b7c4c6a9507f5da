/* e2e_png.c -- a small PNG reader for screenshots (e2e_png.h). A PNG is an 8-byte
 * signature and chunks (length, type, data, CRC-32 of type and data); IHDR gives the
 * size and pixel format, the IDAT chunks together are one zlib stream holding each row
 * as a filter-type byte and the filtered bytes (PNG specification, sections 5, 9, 11). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "e2e_png.h"

#define PNG_MAX_SIDE 16384

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int fail(char *err, size_t errlen, const char *why)
{
    snprintf(err, errlen, "%s", why);
    return -1;
}

/* the whole file in memory; NULL on error */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    size_t r;
    while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    fclose(f);
    *len = n;
    return b;
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* undo the row filters in place: raw holds h rows of 1 + stride bytes */
static int unfilter(uint8_t *raw, int h, size_t stride, int bpp)
{
    for (int y = 0; y < h; y++) {
        uint8_t *row = raw + (size_t)y * (stride + 1), *cur = row + 1;
        const uint8_t *up = y > 0 ? cur - (stride + 1) : NULL;
        for (size_t i = 0; i < stride; i++) {
            int a = i >= (size_t)bpp ? cur[i - (size_t)bpp] : 0;
            int b = up ? up[i] : 0;
            int c = up && i >= (size_t)bpp ? up[i - (size_t)bpp] : 0;
            switch (row[0]) {
            case 0: break;
            case 1: cur[i] = (uint8_t)(cur[i] + a); break;
            case 2: cur[i] = (uint8_t)(cur[i] + b); break;
            case 3: cur[i] = (uint8_t)(cur[i] + (a + b) / 2); break;
            case 4: cur[i] = (uint8_t)(cur[i] + paeth(a, b, c)); break;
            default: return -1;
            }
        }
    }
    return 0;
}

/* walk the chunks: the header fields and the IDAT bytes concatenated into *idat */
static int chunks(const uint8_t *f, size_t len, uint8_t hdr[13], uint8_t **idat,
                  size_t *idat_len, char *err, size_t errlen)
{
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    if (len < 8 || memcmp(f, sig, 8) != 0)
        return fail(err, errlen, "not a PNG file (signature)");
    int have_hdr = 0;
    for (size_t at = 8;;) {
        if (len - at < 12)
            return fail(err, errlen, "truncated PNG (no IEND)");
        uint32_t n = be32(f + at);
        const uint8_t *type = f + at + 4, *data = f + at + 8;
        if (n > len - at - 12)
            return fail(err, errlen, "truncated PNG chunk");
        if (crc32(crc32(0, NULL, 0), type, n + 4) != be32(data + n))
            return fail(err, errlen, "PNG chunk CRC mismatch");
        if (memcmp(type, "IHDR", 4) == 0 && n == 13) {
            memcpy(hdr, data, 13);
            have_hdr = 1;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            uint8_t *nb = realloc(*idat, *idat_len + n + 1);
            if (!nb)
                return fail(err, errlen, "out of memory");
            *idat = nb;
            memcpy(nb + *idat_len, data, n);
            *idat_len += n;
        } else if (memcmp(type, "IEND", 4) == 0) {
            break;
        }
        at += 12 + (size_t)n;
    }
    if (!have_hdr || !*idat_len)
        return fail(err, errlen, "PNG without IHDR or IDAT");
    return 0;
}

/* inflate and unfilter the image data, then keep RGB of each pixel */
static int pixels(e2e_png_t *img, const uint8_t *idat, size_t idat_len, int bpp,
                  char *err, size_t errlen)
{
    size_t stride = (size_t)img->w * (size_t)bpp;
    uLongf raw_len = (uLongf)((stride + 1) * (size_t)img->h);
    uint8_t *raw = malloc(raw_len);
    img->rgb = malloc((size_t)img->w * (size_t)img->h * 3);
    if (!raw || !img->rgb) {
        free(raw);
        return fail(err, errlen, "out of memory");
    }
    uLongf got = raw_len;
    int zr = uncompress(raw, &got, idat, (uLong)idat_len);
    if (zr != Z_OK || got != raw_len) {
        free(raw);
        return fail(err, errlen, "PNG image data does not inflate to the image size");
    }
    if (unfilter(raw, img->h, stride, bpp) < 0) {
        free(raw);
        return fail(err, errlen, "PNG row with an unknown filter type");
    }
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++)
            memcpy(img->rgb + ((size_t)y * (size_t)img->w + (size_t)x) * 3,
                   raw + (size_t)y * (stride + 1) + 1 + (size_t)x * (size_t)bpp, 3);
    free(raw);
    return 0;
}

int e2e_png_read(e2e_png_t *img, const char *path, char *err, size_t errlen)
{
    img->w = img->h = 0;
    img->rgb = NULL;
    size_t len;
    uint8_t *f = slurp(path, &len), hdr[13] = { 0 }, *idat = NULL;
    size_t idat_len = 0;
    if (!f)
        return fail(err, errlen, "cannot read the file");
    int r = chunks(f, len, hdr, &idat, &idat_len, err, errlen);
    free(f);
    if (r == 0) {
        img->w = (int)be32(hdr);
        img->h = (int)be32(hdr + 4);
        int depth = hdr[8], colour = hdr[9], bpp = colour == 2 ? 3 : 4;
        if (img->w <= 0 || img->h <= 0 || img->w > PNG_MAX_SIDE || img->h > PNG_MAX_SIDE)
            r = fail(err, errlen, "PNG size out of range");
        else if (depth != 8 || (colour != 2 && colour != 6) || hdr[10] || hdr[11] || hdr[12])
            r = fail(err, errlen, "not an 8-bit RGB/RGBA non-interlaced PNG");
        else
            r = pixels(img, idat, idat_len, bpp, err, errlen);
    }
    free(idat);
    if (r < 0)
        e2e_png_free(img);
    return r;
}

void e2e_png_free(e2e_png_t *img)
{
    free(img->rgb);
    img->rgb = NULL;
    img->w = img->h = 0;
}

long e2e_png_at(const e2e_png_t *img, int x, int y)
{
    if (x < 0 || y < 0 || x >= img->w || y >= img->h)
        return -1;
    const uint8_t *p = img->rgb + ((size_t)y * (size_t)img->w + (size_t)x) * 3;
    return (long)p[0] << 16 | (long)p[1] << 8 | p[2];
}
