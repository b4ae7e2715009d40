barrier_tree -P 64 --sweep n=2..8:1
