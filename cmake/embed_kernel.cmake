# Turn one .cl file into a C source holding it as a NUL-terminated char array, so the library needs
# no files at run time. Usage: cmake -DINPUT=x.cl -DOUTPUT=x.c -DSYMBOL=clg_source_x_cl -P embed_kernel.cmake
file(READ "${INPUT}" content HEX)
string(LENGTH "${content}" hex_length)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
# break the array into lines of 16 bytes for readable generated code
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " bytes "${bytes}")
file(WRITE "${OUTPUT}" "/* generated from ${INPUT} by embed_kernel.cmake; do not edit */\n")
file(APPEND "${OUTPUT}" "const char ${SYMBOL}[] = {\n    ${bytes}0x00};\n")
