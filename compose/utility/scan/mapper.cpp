// Maps a clang::FunctionDecl to a ScannedFunction: names, types as written, const /
// pointer / reference facts, template parameters, default arguments and the doc comment.
#include "compose/utility/scan/mapper.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Comment.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RawCommentList.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace peppher::scan {
namespace {

clang::PrintingPolicy printing_policy(const clang::ASTContext& ctx) {
  clang::PrintingPolicy pp(ctx.getLangOpts());
  pp.SuppressUnwrittenScope = true;  // no "(anonymous namespace)::"
  return pp;
}

// Builtin arithmetic spelling of t, seeing through typedefs and enums; "" if not one.
std::string builtin_spelling(clang::QualType t, const clang::PrintingPolicy& pp) {
  clang::QualType c = t.getCanonicalType().getUnqualifiedType();
  if (const auto* e = c->getAs<clang::EnumType>()) {
    c = e->getDecl()->getIntegerType().getCanonicalType();
    if (c.isNull()) return "";
  }
  const auto* b = c->getAs<clang::BuiltinType>();
  if (b == nullptr || (!b->isInteger() && !b->isFloatingPoint())) return "";
  return c.getAsString(pp);
}

// Fields of a plain struct (no bases, no virtuals, builtin fields only), for OpenCL.
bool plain_record_fields(clang::QualType t, const clang::PrintingPolicy& pp,
                         std::vector<ScannedField>& fields) {
  const clang::RecordDecl* rd = t->getAsRecordDecl();
  if (rd == nullptr || rd->getDefinition() == nullptr || rd->isUnion()) return false;
  rd = rd->getDefinition();
  if (const auto* cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd)) {
    if (cxx->getNumBases() > 0 || cxx->isPolymorphic()) return false;
  }
  for (const clang::FieldDecl* f : rd->fields()) {
    std::string spelling = builtin_spelling(f->getType(), pp);
    if (spelling.empty() || f->isBitField() || f->getName().empty()) return false;
    fields.push_back({f->getNameAsString(), spelling});
  }
  return !fields.empty();
}

bool is_function_pointer_like(clang::QualType t) {
  return t->isFunctionPointerType() || t->isBlockPointerType() || t->isMemberPointerType() ||
         t->isFunctionReferenceType() || t->isFunctionType();
}

// The outermost type as written, through parentheses, attributes and elaboration but not
// through typedefs: `cl_mem` (a typedef'd pointer) is a handle passed by value, as the
// composer reads descriptor types.
const clang::Type* written_type(clang::QualType t) {
  const clang::Type* w = t.getTypePtr();
  while (true) {
    if (const auto* p = llvm::dyn_cast<clang::ParenType>(w)) {
      w = p->getInnerType().getTypePtr();
    } else if (const auto* a = llvm::dyn_cast<clang::AttributedType>(w)) {
      w = a->getModifiedType().getTypePtr();
    } else if (const auto* m = llvm::dyn_cast<clang::MacroQualifiedType>(w)) {
      w = m->getUnderlyingType().getTypePtr();
    } else if (const auto* e = llvm::dyn_cast<clang::ElaboratedType>(w)) {
      w = e->getNamedType().getTypePtr();
    } else {
      return w;
    }
  }
}

// Whether a blank line separates the comment from d: then it is no doc comment of d
// (zlib documents each function below it, so the comment above is the previous one's).
bool blank_line_between(const clang::RawComment& rc, const clang::FunctionDecl& d,
                        const clang::SourceManager& sm) {
  const clang::Decl* outer = d.getDescribedFunctionTemplate();
  if (outer == nullptr) outer = &d;
  const auto [file, from] = sm.getDecomposedLoc(sm.getFileLoc(rc.getEndLoc()));
  const auto [decl_file, to] = sm.getDecomposedLoc(sm.getFileLoc(outer->getBeginLoc()));
  if (file != decl_file || to <= from) return false;
  const llvm::StringRef between = sm.getBufferData(file).substr(from, to - from);
  bool blank = false;  // the current line holds only blanks so far
  for (size_t i = between.find('\n'); i < between.size(); ++i) {
    const char c = between[i];
    if (c == '\n') {
      if (blank) return true;
      blank = true;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      blank = false;
    }
  }
  return false;
}

// Whether t is spelled through the `__builtin_va_list` typedef (va_list, __gnuc_va_list).
bool is_va_list(clang::QualType t, const clang::ASTContext& ctx) {
  const clang::TypedefNameDecl* builtin = ctx.getBuiltinVaListDecl();
  while (const auto* td = t->getAs<clang::TypedefType>()) {
    if (td->getDecl() == builtin) return true;
    t = td->getDecl()->getUnderlyingType();
  }
  return false;
}

// Why a parameter whose value type is t cannot be copied into a task byte by byte
// (std::vector, std::string: a class that owns memory), or "".
std::string owning_class_refusal(clang::QualType t, const std::string& written,
                                 const clang::PrintingPolicy& pp) {
  const auto* rd = t->getAsCXXRecordDecl();
  if (rd == nullptr) return "";
  if (!rd->hasDefinition()) {
    // A template specialization a parameter names but nothing instantiated
    // (`const std::vector<float> &`): its template's copy constructor or destructor says.
    const auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd);
    const clang::CXXRecordDecl* pattern =
        spec == nullptr ? nullptr
                        : spec->getSpecializedTemplate()->getTemplatedDecl()->getDefinition();
    if (pattern == nullptr ||
        !(pattern->hasUserDeclaredDestructor() || pattern->hasUserDeclaredCopyConstructor())) {
      return "";
    }
  } else if (rd->isTriviallyCopyable()) {
    return "";
  }
  for (const clang::DeclContext* c = rd->getDeclContext(); c != nullptr; c = c->getParent()) {
    const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(c);
    if (ns != nullptr && ns->getName() == "peppher") return "";  // Vector, Matrix, Scalar
  }
  std::string rewrite = "a pointer to its elements with numElements";
  if (const auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd)) {
    if (rd->getName() == "vector" && spec->getTemplateArgs().size() >= 1 &&
        spec->getTemplateArgs()[0].getKind() == clang::TemplateArgument::Type) {
      const std::string elem = spec->getTemplateArgs()[0].getAsType().getAsString(pp);
      const std::string cst = t.isConstQualified() ? "const " : "";
      rewrite = "'" + cst + "peppher::Vector<" + elem + "> &', or '" + cst + elem +
                " *' with numElements";
    }
  }
  return "has the type '" + written + "', a class that owns memory (not trivially copyable), " +
         "which cannot be copied between memories byte by byte; pass " + rewrite;
}

}  // namespace

std::vector<ScannedAnnotation> FunctionMapper::annotations(const clang::Decl& d) const {
  std::vector<ScannedAnnotation> out;
  for (const clang::AnnotateAttr* a : d.specific_attrs<clang::AnnotateAttr>()) {
    const llvm::StringRef text = a->getAnnotation();
    if (text.substr(0, 8) != "peppher:") continue;
    out.push_back({location(a->getLocation()), text.substr(8).str()});
  }
  return out;
}

ir::SourceLoc FunctionMapper::location(clang::SourceLocation loc) const {
  const clang::SourceManager& sm = ctx_.getSourceManager();
  // getFileLoc: a name passed to a macro (libpng's PNG_EXPORT(1, void, png_f, (...)))
  // is located where it is written, not at the macro's start.
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getFileLoc(loc));
  if (p.isInvalid()) return {};
  return {p.getFilename(), static_cast<int>(p.getLine()), static_cast<int>(p.getColumn())};
}

bool FunctionMapper::worth_visiting(const clang::Decl& d) const {
  if (llvm::isa<clang::TranslationUnitDecl>(d)) return true;
  const clang::SourceManager& sm = ctx_.getSourceManager();
  clang::SourceLocation loc = sm.getExpansionLoc(d.getLocation());
  return loc.isValid() && sm.isWrittenInMainFile(loc);
}

void FunctionMapper::add(const clang::FunctionDecl& d) {
  if (!worth_visiting(d) || d.isImplicit() || d.isDeleted() || d.isMain()) return;
  if (!d.getDeclName().isIdentifier()) return;  // operators, constructors, conversions
  if (d.getCanonicalDecl() != &d) return;       // a redeclaration: the first one counts
  if (d.getTemplatedKind() != clang::FunctionDecl::TK_NonTemplate &&
      d.getTemplatedKind() != clang::FunctionDecl::TK_FunctionTemplate) {
    return;  // specializations and instantiations
  }
  if (d.isInAnonymousNamespace()) return;  // internal to the header's includers

  const clang::PrintingPolicy pp = printing_policy(ctx_);
  ScannedFunction f;
  f.loc = location(d.getLocation());
  f.name = d.getNameAsString();
  f.qualified_name = d.getQualifiedNameAsString();
  for (const clang::DeclContext* c = d.getDeclContext(); c != nullptr; c = c->getParent()) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(c)) {
      f.namespaces.insert(f.namespaces.begin(), ns->getNameAsString());
    }
  }
  f.return_type = d.getReturnType().getAsString(pp);
  f.returns_value = !d.getReturnType()->isVoidType();
  f.variadic = d.isVariadic();
  if (const auto* m = llvm::dyn_cast<clang::CXXMethodDecl>(&d)) {
    f.member_of = m->getParent()->getNameAsString();
  }
  f.is_static = d.getStorageClass() == clang::SC_Static;
  f.has_body = d.hasBody();
  if (const clang::FunctionTemplateDecl* t = d.getDescribedFunctionTemplate()) {
    f.is_template = true;
    for (const clang::NamedDecl* tp : *t->getTemplateParameters()) {
      ScannedTemplateParam p;
      p.name = tp->getNameAsString();
      if (const auto* nt = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(tp)) {
        p.is_type = false;
        p.value_type = nt->getType().getAsString(pp);
      }
      f.template_params.push_back(p);
    }
  }
  for (const clang::ParmVarDecl* p : d.parameters()) f.params.push_back(map_param(*p));
  const clang::RawComment* rc = ctx_.getRawCommentForAnyRedecl(&d);
  if (rc != nullptr && !blank_line_between(*rc, d, ctx_.getSourceManager())) {
    f.doc_comment = rc->getFormattedText(ctx_.getSourceManager(), ctx_.getDiagnostics());
  }
  std::string args;
  for (const clang::ParmVarDecl* p : d.parameters()) {
    args += (args.empty() ? "" : ", ") + p->getType().getAsString(pp);
  }
  if (f.variadic) args += args.empty() ? "..." : ", ...";
  f.signature = f.name + "(" + args + ")";
  f.annotations = annotations(d);
  out_.push_back(std::move(f));
}

ScannedParam FunctionMapper::map_param(const clang::ParmVarDecl& p) const {
  const clang::PrintingPolicy pp = printing_policy(ctx_);
  ScannedParam s;
  s.loc = location(p.getLocation());
  s.name = p.getNameAsString();
  s.annotations = annotations(p);
  const clang::QualType t = p.getType();  // arrays already decayed to pointers
  s.type = t.getAsString(pp);
  s.is_restrict = t.isRestrictQualified();
  s.dependent = t->isDependentType();
  clang::QualType value = t;
  // `float x[16]` declares its length; `float m[3][3]` (decayed to `float (*)[3]`) holds
  // rows the composer cannot type.
  const clang::ArrayType* array = ctx_.getAsArrayType(p.getOriginalType());
  if (array != nullptr) {
    if (const auto* fixed = llvm::dyn_cast<clang::ConstantArrayType>(array)) {
      s.array_size = std::to_string(fixed->getSize().getZExtValue());
    }
  }
  if (t->isPointerType() && t->getPointeeType()->isArrayType()) {
    const std::string original = p.getOriginalType().getAsString(pp);
    std::string rows = "rows", cols = "cols";
    if (!s.array_size.empty()) rows = s.array_size;
    if (const auto* row = ctx_.getAsConstantArrayType(t->getPointeeType())) {
      cols = std::to_string(row->getSize().getZExtValue());
    }
    clang::QualType elem = t->getPointeeType();
    while (const clang::ArrayType* a = ctx_.getAsArrayType(elem)) elem = a->getElementType();
    s.shape = ParamShape::Unsupported;
    s.refusal = "is an array of arrays ('" + original +
                "'), which the composer cannot type; rewrite it as a flat row-major array '" +
                elem.getAsString(pp) + " *' (numElements=\"" + rows + "*" + cols +
                "\" descRowWidth=\"" + cols + "\")";
  } else if (is_va_list(p.getOriginalType(), ctx_)) {
    s.shape = ParamShape::Unsupported;
    s.refusal =
        "is a va_list (the arguments of a variadic call); a component has a fixed "
        "parameter list";
  } else if (is_function_pointer_like(t)) {
    s.shape = ParamShape::Unsupported;
    s.refusal = "is a function pointer ('" + s.type +
                "'); a component's parameters are data "
                "that can be moved between memories, not code";
  } else if (t->isRValueReferenceType()) {
    s.shape = ParamShape::Unsupported;
    s.refusal = "is an rvalue reference ('" + s.type + "'); pass it by value or as a pointer";
  } else if (llvm::isa<clang::PointerType>(written_type(t)) ||
             llvm::isa<clang::DecayedType>(written_type(t)) ||
             llvm::isa<clang::LValueReferenceType>(written_type(t))) {
    const bool pointer = t->isPointerType();
    value = t->getPointeeType();
    s.shape = pointer ? ParamShape::Pointer : ParamShape::LValueReference;
    // Only a '*' or '&' written here counts: `cl_mem *` (a typedef'd handle) is one level.
    const clang::Type* written = written_type(value);
    if (llvm::isa<clang::PointerType>(written) || llvm::isa<clang::ReferenceType>(written)) {
      s.shape = ParamShape::Unsupported;
      if (pointer) {
        // T** (an array of row pointers): the data must become one block of memory.
        const clang::QualType row = value->getPointeeType();
        const std::string flat = row.getAsString(pp);
        const std::string elem = row.getUnqualifiedType().getAsString(pp);
        s.refusal = "is a pointer to a pointer ('" + s.type +
                    "'), which cannot be registered as one operand; rewrite it as a flat "
                    "row-major array '" +
                    flat +
                    " *' (numElements=\"rows*cols\" descRowWidth=\"cols\") or as "
                    "'peppher::Matrix<" +
                    elem + "> &'";
      } else {
        s.refusal = "is a reference to a pointer ('" + s.type +
                    "'), which cannot be registered as one operand; pass the pointer itself";
      }
    } else if (is_function_pointer_like(value)) {
      s.shape = ParamShape::Unsupported;
      s.refusal = "is a function pointer ('" + s.type +
                  "'); a component's parameters are data "
                  "that can be moved between memories, not code";
    }
    if (s.shape == ParamShape::Pointer && value->isIncompleteType() && !value->isVoidType() &&
        !value->isDependentType()) {
      s.shape = ParamShape::Unsupported;
      s.refusal = "points to '" + value.getAsString(pp) +
                  "', a type the header does not define (an opaque handle): its data "
                  "cannot be copied between memories";
    }
    s.pointee_const = value.isConstQualified();
    s.is_void_pointee = value->isVoidType();
    s.pointee_type = value.getUnqualifiedType().getAsString(pp);
  }
  if (s.refusal.empty() && !value->isDependentType()) {
    s.refusal = owning_class_refusal(value, s.type, pp);
    if (!s.refusal.empty()) s.shape = ParamShape::Unsupported;
  }
  clang::QualType canonical = value.getCanonicalType().getUnqualifiedType();
  std::string builtin = builtin_spelling(value, pp);
  s.builtin = !builtin.empty();
  s.canonical_type = s.builtin ? builtin : canonical.getAsString(pp);
  if (s.shape == ParamShape::Value) {
    const auto* b = canonical->getAs<clang::BuiltinType>();
    s.integer = b != nullptr && b->isInteger() && b->getKind() != clang::BuiltinType::Bool;
  }
  if (!s.builtin && !value->isDependentType()) {
    s.record_plain = plain_record_fields(value, pp, s.record_fields);
  }
  if (p.hasDefaultArg() && !p.hasUnparsedDefaultArg() && !p.hasUninstantiatedDefaultArg()) {
    clang::CharSourceRange range = clang::CharSourceRange::getTokenRange(p.getDefaultArgRange());
    s.default_arg = std::string(
        clang::Lexer::getSourceText(range, ctx_.getSourceManager(), ctx_.getLangOpts()));
  } else if (p.hasUninstantiatedDefaultArg()) {
    clang::CharSourceRange range =
        clang::CharSourceRange::getTokenRange(p.getUninstantiatedDefaultArg()->getSourceRange());
    s.default_arg = std::string(
        clang::Lexer::getSourceText(range, ctx_.getSourceManager(), ctx_.getLangOpts()));
  }
  return s;
}

}  // namespace peppher::scan
