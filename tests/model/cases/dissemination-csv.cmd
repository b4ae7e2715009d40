barrier_dissemination -s 2,3,5,8 -g 9000 --csv -
