#include <yajl/yajl_parse.h>
