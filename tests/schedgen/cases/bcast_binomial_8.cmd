bcast_binomial -s 8
