// An unmodified OpenSSL application: hashes a file with the pre-3.0 BLAKE2b API, no provider calls.
// SPDX-License-Identifier: Apache-2.0
//
// It relies only on libcrypto's implicit initialisation, which reads OPENSSL_CONF, so whatever that
// configuration activates serves it. It prints, one per line:
//   init_ex <hex>   EVP_DigestInit_ex(EVP_blake2b512()) + update + final
//   q_digest <hex>  EVP_Q_digest(NULL, "BLAKE2b512", NULL, ...)
//   kernel <name>   the digest context's "kernel" param, or "(none)" when the serving provider has
//                   no such param. Only blake2simd has it, so a name proves blake2simd served the
//                   legacy EVP_blake2b512() (on 3.0 EVP_MD_get0_provider() answers NULL there).
//   fetch_provider <name>  who answers EVP_MD_fetch(NULL, "BLAKE2B-512", NULL): the same implicit
//                   fetch OpenSSL's HMAC, HKDF and PBKDF2 make for their inner digest.
//   the same three with the prefix blake2s_ for BLAKE2s (EVP_blake2s256(), "BLAKE2S-256").
// Exit status: 0 success, 1 usage or I/O error, 2 an OpenSSL call failed.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned char* read_file(const char* path, size_t* length) {
    FILE* file = fopen(path, "rb");
    if (file == NULL) {
        return NULL;
    }
    size_t capacity = 4096;
    size_t used = 0;
    unsigned char* data = malloc(capacity);
    while (data != NULL) {
        used += fread(data + used, 1, capacity - used, file);
        if (used < capacity) {
            break;
        }
        capacity *= 2;
        unsigned char* grown = realloc(data, capacity);
        if (grown == NULL) {
            free(data);
        }
        data = grown;
    }
    if (ferror(file)) {
        free(data);
        data = NULL;
    }
    fclose(file);
    *length = used;
    return data;
}

static void print_hex(const char* label, const unsigned char* bytes, size_t length) {
    printf("%s ", label);
    for (size_t i = 0; i < length; ++i) {
        printf("%02x", bytes[i]);
    }
    printf("\n");
}

static int fail(const char* what) {
    fprintf(stderr, "legacy_app: %s failed\n", what);
    ERR_print_errors_fp(stderr);
    return 2;
}

static int digest_with_legacy_md(const EVP_MD* legacy_md, const char* prefix,
                                 const unsigned char* data, size_t length) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    if (ctx == NULL || !EVP_DigestInit_ex(ctx, legacy_md, NULL)) {
        EVP_MD_CTX_free(ctx);
        return fail("EVP_DigestInit_ex(legacy EVP_MD)");
    }
    char kernel[64] = "";
    OSSL_PARAM query[] = {OSSL_PARAM_construct_utf8_string("kernel", kernel, sizeof(kernel)),
                          OSSL_PARAM_construct_end()};
    // Providers without the param leave it unset; that, not the return value, is the answer.
    if (!EVP_MD_CTX_get_params(ctx, query) || !OSSL_PARAM_modified(&query[0])) {
        kernel[0] = '\0';
    }
    ERR_clear_error();

    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int out_length = 0;
    const int ok = EVP_DigestUpdate(ctx, data, length) && EVP_DigestFinal_ex(ctx, out, &out_length);
    EVP_MD_CTX_free(ctx);
    if (!ok) {
        return fail("EVP_DigestUpdate/EVP_DigestFinal_ex");
    }
    char label[64];
    snprintf(label, sizeof(label), "%sinit_ex", prefix);
    print_hex(label, out, out_length);
    printf("%skernel %s\n", prefix, kernel[0] != '\0' ? kernel : "(none)");
    return 0;
}

static int digest_with_quick_api(const unsigned char* data, size_t length) {
    unsigned char out[EVP_MAX_MD_SIZE];
    size_t out_length = 0;
    if (!EVP_Q_digest(NULL, "BLAKE2b512", NULL, data, length, out, &out_length)) {
        return fail("EVP_Q_digest(\"BLAKE2b512\")");
    }
    print_hex("q_digest", out, out_length);
    return 0;
}

static int report_implicit_fetch(const char* name, const char* prefix) {
    EVP_MD* md = EVP_MD_fetch(NULL, name, NULL);
    if (md == NULL) {
        return fail("EVP_MD_fetch");
    }
    printf("%sfetch_provider %s\n", prefix, OSSL_PROVIDER_get0_name(EVP_MD_get0_provider(md)));
    EVP_MD_free(md);
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 1;
    }
    size_t length = 0;
    unsigned char* data = read_file(argv[1], &length);
    if (data == NULL) {
        fprintf(stderr, "legacy_app: cannot read %s\n", argv[1]);
        return 1;
    }
    int status = digest_with_legacy_md(EVP_blake2b512(), "", data, length);
    if (status == 0) {
        status = digest_with_quick_api(data, length);
    }
    if (status == 0) {
        status = report_implicit_fetch("BLAKE2B-512", "");
    }
    if (status == 0) {
        status = digest_with_legacy_md(EVP_blake2s256(), "blake2s_", data, length);
    }
    if (status == 0) {
        status = report_implicit_fetch("BLAKE2S-256", "blake2s_");
    }
    free(data);
    return status;
}
