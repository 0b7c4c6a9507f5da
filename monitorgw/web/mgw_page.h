/* mgw_page.h -- the browser monitor's page (mgw_page.html, built into the binary by
 * mgw_page.c): served by the live monitor gateway and by the log player. */
#ifndef RCSS_MGW_PAGE_H
#define RCSS_MGW_PAGE_H

extern const char mgw_page_html[];

#endif
