/* mgw3d_page.c -- the 3D browser view's page (mgw3d_page.html) inside the
 * rcss3d-monitorgw binary as the NUL-terminated string mgw3d_page_html: the assembler
 * includes the file as it is (the 2D browser page's way), so the page stays one plain
 * HTML file. */
#include "mgw3d.h"

__asm__(".section .rodata\n"
        ".global mgw3d_page_html\n"
        ".type mgw3d_page_html, @object\n"
        "mgw3d_page_html:\n"
        ".incbin \"monitorgw/3d/mgw3d_page.html\"\n"
        ".byte 0\n"
        ".size mgw3d_page_html, . - mgw3d_page_html\n"
        ".previous\n");
