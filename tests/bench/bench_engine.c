/* tests/bench/bench_engine.c — placeholder replaced below */
int main(void) { return 0; }
