! fring.f90: test MPI program in Fortran (`use mpi`) for the tracer's Fortran
! bindings (tracer/goaltrace_f.c): a ring of nonblocking messages completed by
! MPI_Waitall with statuses, blocking messages with MPI_ANY_SOURCE and
! MPI_STATUS_IGNORE, an MPI_Allreduce with MPI_IN_PLACE, a broadcast,
! collectives on a split communicator, and nonblocking collectives.  Rank 0 prints the sum of the ranks.
program fring
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, left, right, i, sub
  integer :: reqs(2), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
  double precision :: x, y, v(4)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  x = rank
  do i = 1, 5
    call MPI_Irecv(y, 1, MPI_DOUBLE_PRECISION, left, i, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Isend(x, 1, MPI_DOUBLE_PRECISION, right, i, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Waitall(2, reqs, sts, ierr)
    x = y
  end do
  if (rank == 0) then
    call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, right, 9, MPI_COMM_WORLD, ierr)
    call MPI_Recv(y, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, st, ierr)
  else
    call MPI_Recv(y, 1, MPI_DOUBLE_PRECISION, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Send(y, 1, MPI_DOUBLE_PRECISION, right, 9, MPI_COMM_WORLD, ierr)
  end if
  v = rank
  call MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(v, 4, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, sub, ierr)
  call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_MAX, sub, ierr)
  call MPI_Iallreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_MIN, sub, reqs(1), ierr)
  call MPI_Ibarrier(MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_Barrier(sub, ierr)
  call MPI_Comm_free(sub, ierr)
  if (rank == 0) print '(a, f6.1, a, i0)', 'sum ', v(1), ' from status ', st(MPI_SOURCE)
  call MPI_Finalize(ierr)
end program fring
