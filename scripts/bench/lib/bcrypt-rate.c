/* bcrypt verification rate: THREADS threads verify one password against one hash of cost COST for SECS s.
   -DUSE_CBCRYPT: hummingbird-auth's CBcrypt (what Warden's login runs), linked from Warden's own build
   objects or compiled from its source; otherwise libxcrypt's crypt_rn().
   Prints: BCRYPT impl=… cost=… threads=… hashes=… secs=… rate=… ok=… */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef USE_CBCRYPT
#define BCRYPT_SALTSPACE 30
#define BCRYPT_MAXSALT 16
int c_hb_bcrypt_initsalt_with_csalt(int log_rounds, char *salt, size_t saltbuflen, const uint8_t *csalt);
int c_hb_bcrypt_hashpass(const char *key, const char *salt, char *encrypted, size_t encryptedlen);
int c_hb_bcrypt_checkpass(const char *pass, const char *goodhash);
#else
#include <crypt.h>
#endif
static const char *password = "bench-Password-1";
static char hash[128];
static volatile int stop_flag;
static long counts[256];
static volatile int bad;
static void *worker(void *arg) {
    long i = (long)arg;
#ifndef USE_CBCRYPT
    struct crypt_data *d = calloc(1, sizeof *d);
#endif
    while (!stop_flag) {
#ifdef USE_CBCRYPT
        if (c_hb_bcrypt_checkpass(password, hash) != 0) bad = 1;
#else
        const char *h = crypt_rn(password, hash, d, sizeof *d);
        if (!h || strcmp(h, hash) != 0) bad = 1;
#endif
        counts[i]++;
    }
    return NULL;
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
    int cost = argc > 1 ? atoi(argv[1]) : 10, threads = argc > 2 ? atoi(argv[2]) : 2;
    double secs = argc > 3 ? atof(argv[3]) : 5;
    if (threads < 1 || threads > 256) return 2;
#ifdef USE_CBCRYPT
    char salt[BCRYPT_SALTSPACE]; uint8_t csalt[BCRYPT_MAXSALT];
    for (int i = 0; i < BCRYPT_MAXSALT; i++) csalt[i] = (uint8_t)(i * 37 + 11);
    if (c_hb_bcrypt_initsalt_with_csalt(cost, salt, sizeof salt, csalt) != 0) return 3;
    if (c_hb_bcrypt_hashpass(password, salt, hash, sizeof hash) != 0) return 3;
#else
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    if (!crypt_gensalt_rn("$2b$", cost, NULL, 0, setting, sizeof setting)) return 3;
    struct crypt_data d; memset(&d, 0, sizeof d);
    const char *h = crypt_rn(password, setting, &d, sizeof d);
    if (!h || h[0] == '*') return 3;
    snprintf(hash, sizeof hash, "%s", h);
#endif
    pthread_t t[256];
    double t0 = now();
    for (long i = 0; i < threads; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
    nanosleep(&ts, NULL);
    stop_flag = 1;
    long total = 0;
    for (int i = 0; i < threads; i++) { pthread_join(t[i], NULL); total += counts[i]; }
    double el = now() - t0;
    printf("BCRYPT cost=%d threads=%d hashes=%ld secs=%.2f rate=%.1f ok=%d\n", cost, threads, total, el, total / el, !bad);
    return bad ? 4 : 0;
}
