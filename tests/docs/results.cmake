# bench/results/README.md is an index generated over every results folder (scripts/results-index.py):
# a folder without a row or a README, a row without a folder, or an index that is not what the
# folders give now fails, with the command that regenerates it.
add_test(NAME docs.results_indexed
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/results-index.py --check)
