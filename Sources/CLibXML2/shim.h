#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU; its headers would then pull in the system ICU and
// clash with Foundation's private _FoundationICU module. We never use the ICU converter
// fields, so hide them. The clash depends on build order: check a change here with rm -rf .build.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
