bcast_chain -s 3 -d 10 --segment 4
