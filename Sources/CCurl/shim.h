#ifndef REFUND_COST_CCURL_SHIM_H
#define REFUND_COST_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per kind of value.
static inline CURLcode refund_cost_curl_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode refund_cost_curl_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*refund_cost_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode refund_cost_curl_callback(CURL *handle, CURLoption option, refund_cost_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
static inline CURLcode refund_cost_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
#endif
