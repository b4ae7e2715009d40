scatter_linear -s 2..64 -d 1000 --stride 64 --o-mw 300 --O-mw 0.5 --l-mw 200 --L-mw 0.25
