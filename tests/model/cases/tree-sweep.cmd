barrier_tree -s 64 --sweep n=2..8:1
