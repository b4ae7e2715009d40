barrier_tournament -s 6 --root 1 -d 0
