/* mgw_page.c -- the browser page (mgw_page.html) inside the rcss-monitorgw binary, as
 * the NUL-terminated string mgw_page_html: the assembler includes the file as it is, so
 * the page stays one plain HTML file with no build step of its own. */
#include "mgw_page.h"

__asm__(".section .rodata\n"
        ".global mgw_page_html\n"
        ".type mgw_page_html, @object\n"
        "mgw_page_html:\n"
        ".incbin \"monitorgw/web/mgw_page.html\"\n"
        ".byte 0\n"
        ".size mgw_page_html, . - mgw_page_html\n"
        ".previous\n");
