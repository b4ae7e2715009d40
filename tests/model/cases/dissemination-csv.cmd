barrier_dissemination -P 2,3,5,8 -g 9000 --csv
