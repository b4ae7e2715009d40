bcast_chain -s 2..8 --loop 10 -L 45740 -o 3460 -g 915 -G 8.49
