scatter_linear -s 2..16 -d 1000 -L 1000 -o 3000 -g 100 -G 2 -O 1
