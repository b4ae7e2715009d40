bcast_binomial -P 16 -s 1024 --sweep G=0.25..2
