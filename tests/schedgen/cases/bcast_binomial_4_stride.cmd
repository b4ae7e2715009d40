bcast_binomial -s 4 -d 1024 --stride 64 --block 16 --sync --iterations 2
