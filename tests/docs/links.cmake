# Every relative link and image of README.md, docs/*.md and the bench READMEs leads to a file,
# and every #anchor to a heading of its page (GitHub's rule); external links are not fetched.
add_test(NAME docs.links
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/check-links.py
                 --root ${PROJECT_SOURCE_DIR})
