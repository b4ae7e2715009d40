bcast_binomial -s 16 -d 1024 --sweep G=0.25..2
