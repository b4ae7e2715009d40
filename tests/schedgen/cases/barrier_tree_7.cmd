barrier_tree -s 7 --fanin 3
